package mpibench;

import dev.distvm.perf.MpiPingPong;

import mpi.MPI;
import mpi.MPIException;

/**
 * The two ranks of the dist MPI side of {@link MpiPingPong}; rank 0 prints the result line. In a
 * package of its own, so that in threads mode each rank loads it (and {@code mpi}) in its own class loader.
 */
public final class PingPongRanks {
    private PingPongRanks() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        byte[] small = new byte[MpiPingPong.SMALL];
        byte[] large = new byte[MpiPingPong.LARGE];
        bounce(rank, small, MpiPingPong.SMALL_TRIPS);
        double latency = bounce(rank, small, MpiPingPong.SMALL_TRIPS);
        bounce(rank, large, MpiPingPong.LARGE_TRIPS);
        double perLarge = bounce(rank, large, MpiPingPong.LARGE_TRIPS);
        if (rank == 0) {
            System.out.printf("latency_us %.3f bandwidth_MBps %.3f%n", latency * 1e6, 2.0 * large.length / perLarge / 1e6);
        }
        MPI.Finalize();
    }

    private static double bounce(int rank, byte[] buffer, int trips) throws MPIException {
        double start = MPI.Wtime();
        for (int i = 0; i < trips; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.Send(buffer, 0, buffer.length, MPI.BYTE, 1, 0);
                MPI.COMM_WORLD.Recv(buffer, 0, buffer.length, MPI.BYTE, 1, 0);
            } else {
                MPI.COMM_WORLD.Recv(buffer, 0, buffer.length, MPI.BYTE, 0, 0);
                MPI.COMM_WORLD.Send(buffer, 0, buffer.length, MPI.BYTE, 0, 0);
            }
        }
        return (MPI.Wtime() - start) / trips;
    }
}
