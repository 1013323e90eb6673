package mpi;

/**
 * An MPI call failed; dist adds the MPI error class (one of the {@code MPI.ERR_*} constants) so that
 * a program can tell failures apart. Unchecked, as in MPJ Express: mpiJava 1.2 programs, which
 * declare or catch it, compile unchanged, and so do MPJ Express programs, which need not.
 */
public class MPIException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int errorClass;

    public MPIException() {
        this(MPI.ERR_OTHER, "MPI error");
    }

    public MPIException(String message) {
        this(MPI.ERR_OTHER, message);
    }

    public MPIException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public MPIException(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    /** The MPI error class, e.g. {@link MPI#ERR_TRUNCATE}. */
    public int getErrorClass() {
        return errorClass;
    }

    /** mpiJava-style name of {@link #getErrorClass()}. */
    public int Get_error_class() {
        return errorClass;
    }
}
