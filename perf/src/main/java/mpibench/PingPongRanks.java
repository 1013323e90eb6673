package mpibench;

import dev.distvm.perf.MpiPingPong;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import mpi.MPI;
import mpi.MPIException;

/**
 * The two ranks of the dist MPI side of {@link MpiPingPong}; rank 0 prints the result line. In a
 * package of its own, so that in threads mode each rank loads it (and {@code mpi}) in its own class loader.
 */
public final class PingPongRanks {
    private static final int MAX_WARM_UP_ROUNDS = 20;
    private static final long COMPILING_MILLIS = 5;

    private PingPongRanks() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        byte[] small = new byte[MpiPingPong.SMALL];
        byte[] large = new byte[MpiPingPong.LARGE];
        warmUp(rank, small, MpiPingPong.SMALL_TRIPS);
        double latency = bounce(rank, small, MpiPingPong.SMALL_TRIPS);
        warmUp(rank, large, MpiPingPong.LARGE_TRIPS);
        double perLarge = bounce(rank, large, MpiPingPong.LARGE_TRIPS);
        if (rank == 0) {
            System.out.printf("latency_us %.3f bandwidth_MBps %.3f%n", latency * 1e6, 2.0 * large.length / perLarge / 1e6);
        }
        MPI.Finalize();
    }

    /**
     * Round trips until the JIT has stopped compiling (no rank's JVM spent more than
     * {@link #COMPILING_MILLIS} compiling during a round), at most {@link #MAX_WARM_UP_ROUNDS} rounds:
     * dist's path is long enough that a fixed number of trips ends, on a slow machine, while the
     * compilers still take a core, which both slows every side and keeps a rank from spinning.
     */
    private static void warmUp(int rank, byte[] buffer, int trips) throws MPIException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        int[] compiling = {1};
        for (int round = 0; round < MAX_WARM_UP_ROUNDS && compiling[0] != 0; round++) {
            long before = jit.getTotalCompilationTime();
            bounce(rank, buffer, trips);
            int[] mine = {jit.getTotalCompilationTime() - before > COMPILING_MILLIS ? 1 : 0};
            MPI.COMM_WORLD.Allreduce(mine, 0, compiling, 0, 1, MPI.INT, MPI.MAX);
        }
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
