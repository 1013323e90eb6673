package mpibench;

import java.util.Arrays;
import mpi.MPI;

/**
 * Round trips of 1 byte between ranks 0 and 1, timed one by one: rank 0 prints the 10th, 50th, 90th
 * 99th and 99.9th percentiles, the largest and the mean of each of two halves (the first warms up). Where {@code MpiPingPong}'s mean
 * hides whether a change moved the typical hand-over or its tail, this tells them apart.
 *
 * <p>usage: {@code dist mpirun -np 2 [--threads] -- -cp build/perf.jar mpibench.PingPongPercentiles [trips]}
 */
public final class PingPongPercentiles {
    private PingPongPercentiles() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int trips = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        byte[] one = new byte[1];
        long[] nanos = new long[trips];
        for (int half = 1; half <= 2; half++) {
            for (int i = 0; i < trips; i++) {
                long start = System.nanoTime();
                if (rank == 0) {
                    MPI.COMM_WORLD.Send(one, 0, 1, MPI.BYTE, 1, 0);
                    MPI.COMM_WORLD.Recv(one, 0, 1, MPI.BYTE, 1, 0);
                } else {
                    MPI.COMM_WORLD.Recv(one, 0, 1, MPI.BYTE, 0, 0);
                    MPI.COMM_WORLD.Send(one, 0, 1, MPI.BYTE, 0, 0);
                }
                nanos[i] = System.nanoTime() - start;
            }
            if (rank == 0) {
                double mean = Arrays.stream(nanos).average().orElse(0);
                Arrays.sort(nanos);
                System.out.printf("half %d: round trip p10 %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f mean %.1f us%n",
                        half, nanos[trips / 10] / 1e3, nanos[trips / 2] / 1e3, nanos[trips * 9 / 10] / 1e3,
                        nanos[trips * 99 / 100] / 1e3, nanos[trips * 999 / 1000] / 1e3, nanos[trips - 1] / 1e3, mean / 1e3);
            }
        }
        MPI.Finalize();
    }
}
