package mpitest.p2p;

import mpi.MPI;

/** Rank 1 exits with status 3 while the others wait for a message it never sends. */
public final class FailingRank {
    private FailingRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        System.out.println("rank " + rank + " started");
        System.out.flush();
        if (rank == 1) {
            System.exit(3);
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, 1, 0);
        MPI.Finalize();
    }
}
