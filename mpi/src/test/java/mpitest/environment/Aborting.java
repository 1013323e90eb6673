package mpitest.environment;

import mpi.MPI;

/**
 * Rank 1 ends the job while the others wait on it: with {@code Abort(5)} when the first argument
 * is "abort", else through an error under ERRORS_ARE_FATAL.
 */
public final class Aborting {
    private Aborting() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            if (args.length > 0 && args[0].equals("abort")) {
                MPI.COMM_WORLD.Abort(5);
            }
            MPI.COMM_WORLD.Errhandler_set(MPI.ERRORS_ARE_FATAL);
            MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, MPI.COMM_WORLD.Size() + 1, 0); // a bad rank: fatal
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
        MPI.Finalize();
    }
}
