package mpi;

/**
 * A persistent request: made once with {@code Send_init}/{@code Recv_init} and friends, then
 * {@link #Start()}ed and completed as often as needed. Inactive until started.
 */
public class Prequest extends Request {
    /** Starts one round of the operation; the buffer is read (send) or written (receive) in that round. */
    interface Starter {
        Operation start() throws MPIException;
    }

    private final Starter starter;

    Prequest(Comm comm, Starter starter) {
        super(comm, null);
        this.starter = starter;
    }

    public void Start() throws MPIException {
        rearm(starter.start());
    }

    public static void Startall(Prequest[] requests) throws MPIException {
        for (Prequest request : requests) {
            request.Start();
        }
    }
}
