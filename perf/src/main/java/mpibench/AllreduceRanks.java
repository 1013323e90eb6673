package mpibench;

import mpi.MPI;
import mpi.MPIException;

/**
 * Ranks of {@code dev.distvm.perf.MpiCollectives} (outside {@code dev.distvm.*}, whose classes threads-mode
 * ranks share rather than load each for themselves): times an Allreduce(SUM) of 1 MiB of doubles against moving the
 * same 1 MiB once point-to-point around a ring (Sendrecv to the next rank), and checks the sum.
 */
public final class AllreduceRanks {
    private static final int DOUBLES = (1 << 20) / Double.BYTES;

    private AllreduceRanks() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        double[] mine = new double[DOUBLES];
        double[] sum = new double[DOUBLES];
        double[] received = new double[DOUBLES];
        java.util.Arrays.fill(mine, rank + 1);
        for (int i = 0; i < repeats / 4 + 1; i++) { // warm-up
            allreduce(mine, sum);
            ring(mine, received, rank, size);
        }
        MPI.COMM_WORLD.Barrier();
        double start = MPI.Wtime();
        for (int i = 0; i < repeats; i++) {
            allreduce(mine, sum);
        }
        double allreduce = (MPI.Wtime() - start) / repeats;
        MPI.COMM_WORLD.Barrier();
        start = MPI.Wtime();
        for (int i = 0; i < repeats; i++) {
            ring(mine, received, rank, size);
        }
        double pointToPoint = (MPI.Wtime() - start) / repeats;
        double expected = size * (size + 1) / 2.0;
        if (sum[DOUBLES - 1] != expected || sum[0] != expected) {
            throw new IllegalStateException("allreduce gave " + sum[0] + ", expected " + expected);
        }
        double[] times = {allreduce, pointToPoint};
        double[] slowest = new double[2];
        MPI.COMM_WORLD.Reduce(times, 0, slowest, 0, 2, MPI.DOUBLE, MPI.MAX, 0);
        if (rank == 0) {
            System.out.printf("allreduce_ms %.3f ring_sendrecv_ms %.3f%n", slowest[0] * 1e3, slowest[1] * 1e3);
        }
        MPI.Finalize();
    }

    private static void allreduce(double[] mine, double[] sum) throws MPIException {
        MPI.COMM_WORLD.Allreduce(mine, 0, sum, 0, DOUBLES, MPI.DOUBLE, MPI.SUM);
    }

    private static void ring(double[] mine, double[] received, int rank, int size) throws MPIException {
        MPI.COMM_WORLD.Sendrecv(mine, 0, DOUBLES, MPI.DOUBLE, (rank + 1) % size, 0,
                received, 0, DOUBLES, MPI.DOUBLE, (rank + size - 1) % size, 0);
    }
}
