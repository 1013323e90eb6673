package mpi;

/**
 * What a communicator does on an error. {@link MPI#ERRORS_RETURN} (dist's default, as Java
 * programs expect) throws the {@link MPIException}; {@link MPI#ERRORS_ARE_FATAL} prints the error
 * and aborts the whole job.
 */
public class Errhandler {
    private final boolean fatal;

    Errhandler(boolean fatal) {
        this.fatal = fatal;
    }

    /** Applies this handler to an error: returns the exception for the caller to throw, or ends the job. */
    MPIException handle(MPIException error) {
        if (fatal) {
            System.err.println("MPI error (ERRORS_ARE_FATAL): " + error.getMessage());
            MPI.abortJob(1);
        }
        return error;
    }
}
