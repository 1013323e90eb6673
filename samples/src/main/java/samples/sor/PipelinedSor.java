package samples.sor;

import java.util.Arrays;
import samples.KernelTime;

/**
 * Red/black SOR synchronized the way the Java Grande Forum's multithreaded SOR is: no barrier, only
 * a progress matrix {@code volatile long[][] sync} in which thread t publishes, in {@code sync[t][0]},
 * how many half-iterations (one colour each) it has finished; after each one a thread spins until
 * both neighbouring bands have finished it too (rows of 8 longs, as in JGF, so that two threads'
 * counters do not share a cache line). That is enough: a band reads only its neighbours' edge rows,
 * and only cells of the colour it is not writing, which the neighbour wrote one half-iteration
 * earlier and will not write again before this band has caught up. So threads may drift apart by
 * many half-iterations across the grid, and the grid is still bit for bit the one that
 * {@link Sor#sweep} gives when run sequentially, which main computes afterwards and compares.
 *
 * <p>As with the flags of {@link samples.barrier.Tournament}, a thread stores the volatile field back
 * before it stores its counter, so the rows it relaxed are released before the counter shows.
 *
 * <p>usage: PipelinedSor [threads] [size] [iterations] (defaults 4, 1000, 200)
 */
public final class PipelinedSor {
    private PipelinedSor() {}

    private static final int BUSY_SPINS = 64;

    static double[][] grid;
    static volatile long[][] sync;

    /** The rows [from, to) of one thread, relaxed half-iteration by half-iteration. */
    static final class Band implements Runnable {
        private final int id, from, to, halfIterations;
        private final boolean last;

        Band(int id, int from, int to, int halfIterations, boolean last) {
            this.id = id;
            this.from = from;
            this.to = to;
            this.halfIterations = halfIterations;
            this.last = last;
        }

        @Override
        public void run() {
            for (int half = 0; half < halfIterations; half++) {
                Sor.sweep(grid, from, to, half % 2);
                long[][] progress = sync;
                sync = progress;
                progress[id][0] = half + 1;
                if (id > 0) {
                    waitFor(id - 1, half + 1);
                }
                if (!last) {
                    waitFor(id + 1, half + 1);
                }
            }
        }

        private static void waitFor(int neighbour, long finished) {
            for (int spins = 1; sync[neighbour][0] < finished; spins++) {
                if (spins % BUSY_SPINS == 0) {
                    Thread.yield();
                }
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int interior = n - 2;
        if (interior < threads) {
            throw new IllegalArgumentException("a " + n + "x" + n + " grid has " + interior
                    + " interior rows, fewer than the " + threads + " threads that each need a band");
        }
        grid = Sor.initialGrid(n);
        sync = new long[threads][8];
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            Band band = new Band(t, 1 + interior * t / threads, 1 + interior * (t + 1) / threads, 2 * iterations,
                    t == threads - 1);
            workers[t] = new Thread(band, "sor-" + t);
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        KernelTime.report(kernel);

        double[][] sequential = Sor.initialGrid(n);
        for (int half = 0; half < 2 * iterations; half++) {
            Sor.sweep(sequential, 1, n - 1, half % 2);
        }
        for (int i = 0; i < n; i++) {
            if (!Arrays.equals(grid[i], sequential[i])) {
                throw new IllegalStateException("row " + i + " differs from the sequential relaxation: a band read"
                        + " a neighbour's row before the neighbour had published it");
            }
        }
        System.out.printf("pipelined grid %dx%d iterations %d, equal to the sequential relaxation%n", n, n, iterations);
        Sor.print(grid);
    }
}
