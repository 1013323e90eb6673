package samples.mpi;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * The JMPI thesis Mandelbrot: a master (rank 0) hands out rows of a 512x512 image to slaves on
 * demand and collects them; it prints a checksum of the image (the same for any number of slaves)
 * and the time.
 *
 * <p>usage: Mandelbrot [size] [maxIterations]   (at least 2 ranks)
 */
public final class Mandelbrot {
    private static final int WORK = 1;
    private static final int STOP = 2;
    private static final int RESULT = 3;

    private Mandelbrot() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        int maxIterations = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        if (MPI.COMM_WORLD.Size() < 2) {
            throw new IllegalStateException("Mandelbrot needs a master and at least one slave (2+ ranks)");
        }
        if (MPI.COMM_WORLD.Rank() == 0) {
            master(size);
        } else {
            slave(size, maxIterations);
        }
        MPI.Finalize();
    }

    private static void master(int size) throws MPIException {
        double start = MPI.Wtime();
        int[][] image = new int[size][];
        int slaves = MPI.COMM_WORLD.Size() - 1;
        int nextRow = 0;
        for (int slave = 1; slave <= slaves; slave++) {
            nextRow = handOut(slave, nextRow, size);
        }
        int[] result = new int[size + 1];
        for (int done = 0; done < size; done++) {
            Status status = MPI.COMM_WORLD.Recv(result, 0, size + 1, MPI.INT, MPI.ANY_SOURCE, RESULT);
            image[result[0]] = java.util.Arrays.copyOfRange(result, 1, size + 1);
            nextRow = handOut(status.source, nextRow, size);
        }
        long checksum = 0;
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                checksum = checksum * 31 + image[y][x];
            }
        }
        System.out.printf("mandelbrot %dx%d, %d slaves: checksum %d%n", size, size, slaves, checksum);
        System.err.printf("time %.3f s%n", MPI.Wtime() - start);
    }

    /** Sends the next row to a slave, or tells it to stop when none is left. */
    private static int handOut(int slave, int row, int size) throws MPIException {
        if (row < size) {
            MPI.COMM_WORLD.Send(new int[] {row}, 0, 1, MPI.INT, slave, WORK);
            return row + 1;
        }
        MPI.COMM_WORLD.Send(new int[] {-1}, 0, 1, MPI.INT, slave, STOP);
        return row;
    }

    private static void slave(int size, int maxIterations) throws MPIException {
        int[] task = new int[1];
        int[] result = new int[size + 1];
        while (true) {
            Status status = MPI.COMM_WORLD.Recv(task, 0, 1, MPI.INT, 0, MPI.ANY_TAG);
            if (status.tag == STOP) {
                return;
            }
            int y = task[0];
            result[0] = y;
            for (int x = 0; x < size; x++) {
                double cr = -2.0 + 3.0 * x / size;
                double ci = -1.5 + 3.0 * y / size;
                double zr = 0;
                double zi = 0;
                int n = 0;
                while (n < maxIterations && zr * zr + zi * zi <= 4.0) {
                    double t = zr * zr - zi * zi + cr;
                    zi = 2 * zr * zi + ci;
                    zr = t;
                    n++;
                }
                result[x + 1] = n;
            }
            MPI.COMM_WORLD.Send(result, 0, size + 1, MPI.INT, 0, RESULT);
        }
    }
}
