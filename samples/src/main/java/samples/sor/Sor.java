package samples.sor;

import samples.KernelTime;

/**
 * Red/black successive over-relaxation on a square double[][] grid (JESSICA / Java/DSM SOR). The
 * interior rows are split into contiguous bands, one worker thread per band (started through a
 * method reference to Band::relax). Each iteration updates the red cells ((i + j) even), waits at a
 * Barrier built from synchronized/wait/notifyAll, updates the black cells and waits again. A red
 * cell reads only black neighbours (and vice versa), which nobody writes during that phase, and
 * every cell is computed by the same expression in the same operand order, so the grid is
 * bit-for-bit the same for any thread count and any schedule; main sums it in row-major order.
 *
 * <p>usage: Sor [threads] [size] [iterations] (defaults 4, 512, 300)
 */
public final class Sor {
    private Sor() {}

    static final double OMEGA = 1.25;
    static double[][] grid;
    static int iterations;
    static Barrier barrier;

    /** A reusable barrier: the last thread to arrive starts a new generation and wakes the rest. */
    static final class Barrier {
        private final int parties;
        private int arrived;
        private long generation;
        Barrier(int parties) { this.parties = parties; }

        synchronized void await() throws InterruptedException {
            long mine = generation;
            if (++arrived == parties) {
                arrived = 0;
                generation++;
                notifyAll();
                return;
            }
            while (generation == mine) wait();
        }
    }

    /** The rows [from, to) of the grid that one worker relaxes. */
    static final class Band {
        final int from, to;
        Band(int from, int to) { this.from = from; this.to = to; }

        void relax() {
            try {
                for (int it = 0; it < iterations; it++) {
                    sweep(0);
                    barrier.await();
                    sweep(1);
                    barrier.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void sweep(int colour) {
            Sor.sweep(grid, from, to, colour);
        }
    }

    /**
     * Relaxes the cells of one colour in the rows [from, to): red ((i + j) even) for colour 0, black
     * for 1. Such a cell reads only cells of the other colour.
     */
    static void sweep(double[][] grid, int from, int to, int colour) {
        int n = grid.length;
        for (int i = from; i < to; i++) {
            double[] up = grid[i - 1], row = grid[i], down = grid[i + 1];
            for (int j = 1 + ((i + 1 + colour) & 1); j < n - 1; j += 2) {
                double avg = (up[j] + down[j] + row[j - 1] + row[j + 1]) * 0.25;
                row[j] = row[j] + OMEGA * (avg - row[j]);
            }
        }
    }

    /** An n x n grid, zero inside, with a fixed boundary: a hot top edge fading along the sides. */
    static double[][] initialGrid(int n) {
        double[][] grid = new double[n][n];
        for (int k = 0; k < n; k++) {
            grid[0][k] = 100.0;
            grid[k][0] = 100.0 * (n - 1 - k) / (n - 1);
            grid[k][n - 1] = 50.0 * (n - 1 - k) / (n - 1);
        }
        return grid;
    }

    /** What main prints about a relaxed grid: its sum, a weighted sum, a probe cell and the sum's bits. */
    static void print(double[][] grid) {
        int n = grid.length;
        double sum = 0, weighted = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sum += grid[i][j];
                weighted += grid[i][j] * ((i * 31 + j) % 17);
            }
        }
        System.out.printf("sum %.10e weighted %.10e probe %.10e%n", sum, weighted, grid[n / 8][n / 8]);
        System.out.printf("bits %016x%n", Double.doubleToLongBits(sum));
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        iterations = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        grid = initialGrid(n);
        barrier = new Barrier(threads);
        int interior = n - 2;
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            Band band = new Band(1 + interior * t / threads, 1 + interior * (t + 1) / threads);
            workers[t] = new Thread(band::relax, "sor-" + t);
            workers[t].start();
        }
        for (Thread w : workers) w.join();
        KernelTime.report(kernel);
        System.out.printf("grid %dx%d iterations %d%n", n, n, iterations);
        print(grid);
    }
}
