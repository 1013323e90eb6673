package samples.mpi;

import mpi.MPI;
import mpi.MPIException;

/**
 * The JMPI thesis ping-pong: ranks 0 and 1 bounce messages of 1 byte to 1 MiB, 64 round trips per
 * size, and rank 0 prints the mean round-trip time and bandwidth per size.
 *
 * <p>usage: PingPong [roundTrips]   (run with 2 ranks)
 */
public final class PingPong {
    private PingPong() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int roundTrips = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        if (MPI.COMM_WORLD.Size() != 2) {
            throw new IllegalStateException("PingPong needs exactly 2 ranks, got " + MPI.COMM_WORLD.Size());
        }
        if (rank == 0) {
            System.out.printf("%10s %14s %14s%n", "bytes", "round trip us", "MB/s");
        }
        for (int size = 1; size <= 1 << 20; size *= 2) {
            byte[] buffer = new byte[size];
            bounce(rank, buffer, roundTrips / 4 + 1); // warm-up
            double start = MPI.Wtime();
            bounce(rank, buffer, roundTrips);
            double seconds = (MPI.Wtime() - start) / roundTrips;
            if (rank == 0) {
                System.out.printf("%10d %14.1f %14.1f%n", size, seconds * 1e6, 2.0 * size / seconds / 1e6);
            }
        }
        MPI.Finalize();
    }

    private static void bounce(int rank, byte[] buffer, int times) throws MPIException {
        for (int i = 0; i < times; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.Send(buffer, 0, buffer.length, MPI.BYTE, 1, 0);
                MPI.COMM_WORLD.Recv(buffer, 0, buffer.length, MPI.BYTE, 1, 0);
            } else {
                MPI.COMM_WORLD.Recv(buffer, 0, buffer.length, MPI.BYTE, 0, 0);
                MPI.COMM_WORLD.Send(buffer, 0, buffer.length, MPI.BYTE, 0, 0);
            }
        }
    }
}
