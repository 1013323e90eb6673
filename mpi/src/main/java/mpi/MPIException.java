package mpi;

/**
 * An MPI call failed. As in mpiJava 1.2 it is a checked exception; dist adds the MPI error class
 * (one of the {@code MPI.ERR_*} constants) so that a program can tell failures apart.
 */
public class MPIException extends Exception {
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
