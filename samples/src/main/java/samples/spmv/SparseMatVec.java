package samples.spmv;

import samples.KernelTime;

/**
 * Sparse matrix times vector over row blocks (the shape of JGF's SparseMatmult): a random sparse
 * matrix in compressed-row form, read by every thread, and a vector x; each thread owns a block of
 * rows and adds A x into its rows of y, {@code repeats} times. The matrix, x and y are three shared
 * arrays read by all and written in disjoint blocks. Checked against the same product computed by
 * main alone afterwards, row by row in the same order, so the sums must agree to the last bit.
 *
 * <p>usage: SparseMatVec [threads] [rows] [nonzeros per row] [repeats] (defaults 4, 50000, 20, 300)
 */
public final class SparseMatVec {
    private SparseMatVec() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 50_000;
        int perRow = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 300;

        int[] rowStart = new int[rows + 1];
        int[] column = new int[rows * perRow];
        double[] value = new double[rows * perRow];
        double[] x = new double[rows];
        long seed = 42;
        for (int r = 0; r < rows; r++) {
            rowStart[r] = r * perRow;
            for (int k = 0; k < perRow; k++) {
                seed = next(seed);
                column[r * perRow + k] = (int) ((seed >>> 17) % rows);
                seed = next(seed);
                value[r * perRow + k] = ((seed >>> 11) % 2001 - 1000) / 1000.0;
            }
        }
        rowStart[rows] = rows * perRow;
        for (int i = 0; i < rows; i++) {
            seed = next(seed);
            x[i] = ((seed >>> 11) % 1001) / 1000.0;
        }

        double[] y = new double[rows];
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int from = (int) ((long) rows * t / threads);
            int to = (int) ((long) rows * (t + 1) / threads);
            workers[t] = new Thread(() -> multiply(rowStart, column, value, x, y, from, to, repeats), "rows-" + t);
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        KernelTime.report(kernel);

        double[] expected = new double[rows];
        multiply(rowStart, column, value, x, expected, 0, rows, repeats);
        for (int r = 0; r < rows; r++) {
            if (Double.doubleToLongBits(y[r]) != Double.doubleToLongBits(expected[r])) {
                throw new IllegalStateException("row " + r + " came out as " + y[r] + ", not " + expected[r]
                        + ": a block is missing or stale");
            }
        }
        double sum = 0;
        for (double v : y) {
            sum += v;
        }
        System.out.printf("y = A x, %d rows, %d nonzeros, %d times: sum %.10e, y[0] %.10e, y[%d] %.10e%n",
                rows, rows * perRow, repeats, sum, y[0], rows - 1, y[rows - 1]);
    }

    private static void multiply(int[] rowStart, int[] column, double[] value, double[] x, double[] y,
                                 int from, int to, int repeats) {
        for (int repeat = 0; repeat < repeats; repeat++) {
            for (int r = from; r < to; r++) {
                double sum = y[r];
                for (int k = rowStart[r]; k < rowStart[r + 1]; k++) {
                    sum += value[k] * x[column[k]];
                }
                y[r] = sum;
            }
        }
    }

    private static long next(long seed) {
        return seed * 6364136223846793005L + 1442695040888963407L;
    }
}
