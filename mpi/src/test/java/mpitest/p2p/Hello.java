package mpitest.p2p;

import mpi.MPI;

/** Each rank prints one line; rank 0 also checks the world's size against its argument. */
public final class Hello {
    private Hello() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (rank == 0 && size != Integer.parseInt(args[0])) {
            throw new AssertionError("size " + size + ", expected " + args[0]);
        }
        System.out.println("hello from rank " + rank + " of " + size);
        MPI.Finalize();
    }
}
