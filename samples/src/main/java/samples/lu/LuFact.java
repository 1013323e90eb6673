package samples.lu;

import java.util.Arrays;
import samples.barrier.Tournament;
import samples.KernelTime;

/**
 * LU factorization with partial pivoting in the shape of the Java Grande Forum's multithreaded
 * LUFact (Linpack's dgefa, column-oriented: {@code a[j]} is column j): at each column step thread 0
 * finds the pivot, swaps it into place and scales the column; all threads meet at a
 * {@link Tournament} spin barrier; each eliminates its share of the remaining columns; they meet
 * again. Main then solves Ax = b (dgesl) for the b that makes x all ones, and checks the normalized
 * residual ||b - Ax|| / (n ||A|| ||x|| eps), as Linpack does. Each column is updated by exactly one
 * thread with the same operations in the same order, so the factors, and what main prints, are bit
 * for bit the same for any thread count.
 *
 * <p>What it exercises: two spin barriers per column (thousands in a run), with the pivot column one
 * thread wrote read by all the others right after the barrier.
 *
 * <p>usage: LuFact [threads] [n] (defaults 4, 500)
 */
public final class LuFact {
    private LuFact() {}

    /** Linpack's bound on a sound factorization's normalized residual. */
    private static final double RESIDUAL_BOUND = 16.0;

    static double[][] a;
    static int[] pivots;
    static Tournament barrier;

    /** One thread's part of the factorization: the pivots (thread 0) and its share of every column step. */
    static final class Factor implements Runnable {
        private final int id, threads;

        Factor(int id, int threads) {
            this.id = id;
            this.threads = threads;
        }

        @Override
        public void run() {
            int n = a.length;
            for (int k = 0; k < n - 1; k++) {
                double[] pivotColumn = a[k];
                if (id == 0) {
                    choosePivot(pivotColumn, k);
                }
                barrier.await(id);
                int l = pivots[k];
                if (pivotColumn[k] != 0) {
                    int remaining = n - k - 1;
                    int from = k + 1 + remaining * id / threads, to = k + 1 + remaining * (id + 1) / threads;
                    for (int j = from; j < to; j++) {
                        double[] column = a[j];
                        double t = column[l];
                        if (l != k) {
                            column[l] = column[k];
                            column[k] = t;
                        }
                        for (int i = k + 1; i < n; i++) {
                            column[i] += t * pivotColumn[i];
                        }
                    }
                }
                barrier.await(id);
            }
        }
    }

    /** Records the row of column k's largest element below the diagonal, swaps it up and scales the multipliers. */
    static void choosePivot(double[] column, int k) {
        int n = column.length, l = k;
        for (int i = k + 1; i < n; i++) {
            if (Math.abs(column[i]) > Math.abs(column[l])) {
                l = i;
            }
        }
        pivots[k] = l;
        if (column[l] != 0) {
            double t = column[l];
            column[l] = column[k];
            column[k] = t;
            double scale = -1.0 / column[k];
            for (int i = k + 1; i < n; i++) {
                column[i] *= scale;
            }
        }
    }

    /** Linpack's test matrix (a[j] is column j), filled in place; returns its largest absolute element. */
    static double generate(double[][] matrix, double[] b) {
        int n = matrix.length, seed = 1325;
        double norm = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                seed = 3125 * seed % 65536;
                matrix[j][i] = (seed - 32768.0) / 16384.0;
                norm = Math.max(norm, Math.abs(matrix[j][i]));
            }
        }
        Arrays.fill(b, 0);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                b[i] += matrix[j][i];
            }
        }
        return norm;
    }

    /** Solves (the factored) A x = b in place: b becomes x (Linpack's dgesl, no transpose). */
    static void solve(double[] b) {
        int n = a.length;
        for (int k = 0; k < n - 1; k++) {
            int l = pivots[k];
            double t = b[l];
            if (l != k) {
                b[l] = b[k];
                b[k] = t;
            }
            for (int i = k + 1; i < n; i++) {
                b[i] += t * a[k][i];
            }
        }
        for (int k = n - 1; k >= 0; k--) {
            b[k] /= a[k][k];
            double t = -b[k];
            for (int i = 0; i < k; i++) {
                b[i] += t * a[k][i];
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        a = new double[n][n];
        double[] x = new double[n];
        generate(a, x);
        pivots = new int[n];
        pivots[n - 1] = n - 1;
        barrier = new Tournament(threads);
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(new Factor(t, threads), "lu-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        KernelTime.report(kernel);
        for (int k = 0; k < n; k++) {
            if (a[k][k] == 0) {
                throw new IllegalStateException("the matrix is singular: U has a zero at column " + k);
            }
        }
        solve(x);

        double[][] original = new double[n][n];
        double[] b = new double[n];
        double norm = generate(original, b);
        double residual = 0, normX = 0, error = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                b[i] -= original[j][i] * x[j];
            }
        }
        for (int i = 0; i < n; i++) {
            residual = Math.max(residual, Math.abs(b[i]));
            normX = Math.max(normX, Math.abs(x[i]));
            error = Math.max(error, Math.abs(x[i] - 1));
        }
        double normalized = residual / (n * norm * normX * Math.ulp(1.0));
        if (!(normalized < RESIDUAL_BOUND)) {
            throw new IllegalStateException("normalized residual " + normalized + " is not below " + RESIDUAL_BOUND
                    + ": the factors are wrong");
        }
        System.out.printf("LU of a %dx%d matrix with partial pivoting: normalized residual %.4f (below %.0f),"
                + " max |x - 1| %.3e%n", n, n, normalized, RESIDUAL_BOUND, error);
    }
}
