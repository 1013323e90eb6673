package perfapp;

/**
 * The object space's unit costs, measured from inside an ordinary program: a thread that dist
 * places on a worker (the first thread stays home: placement fills the least-loaded node, the home
 * first) reads fields of shared objects (valid copies there), of its own objects, acquires (a
 * volatile read of a shared object, which refreshes the node from the home while a home thread
 * keeps changing that object), and takes an uncontended monitor of a shared object. Prints
 * "name value" lines. With --plain (no dist) only the read is measured, as the baseline. Read
 * loops are timed {@link #ROUNDS} times (copies and own objects alternating) and the medians kept:
 * a single loop's time varies by half from one JIT compilation to the next.
 */
public final class SsiCosts {
    static final int OBJECTS = 1024;
    static final int READS = 100_000_000;
    static final int REMOTE_OPERATIONS = 2_000;
    /** Read loops are timed this often, alternating copy and own object, and the medians compared. */
    static final int ROUNDS = 5;

    static final class Cell {
        int value;
        volatile int version;
    }

    private SsiCosts() {}

    public static void main(String[] args) throws InterruptedException {
        Cell[] shared = cells();
        if (args.length > 0 && args[0].equals("--plain")) {
            double[] plain = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                plain[r] = readNanos(shared);
            }
            System.out.printf("plain_read_ns %.3f%n", median(plain));
            return;
        }
        boolean[] done = new boolean[1];
        Object doneLock = new Object();
        Thread changer = new Thread(() -> {
            synchronized (doneLock) {
                int n = 0;
                while (!done[0]) {
                    shared[0].value = ++n; // what the worker's refreshes bring
                    try {
                        doneLock.wait(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "changer");
        changer.start();
        double[] results = new double[4];
        Thread probe = new Thread(() -> {
            Cell[] own = cells();
            double[] copyReads = new double[ROUNDS];
            double[] ownReads = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                copyReads[r] = readNanos(shared);
                ownReads[r] = readNanos(own);
            }
            results[0] = median(copyReads);
            results[1] = median(ownReads);
            long sum = 0;
            long start = System.nanoTime();
            for (int i = 0; i < REMOTE_OPERATIONS; i++) {
                sum += shared[0].version; // volatile read of a copy: a refresh from the home
            }
            results[2] = (System.nanoTime() - start) / 1e3 / REMOTE_OPERATIONS;
            start = System.nanoTime();
            for (int i = 0; i < REMOTE_OPERATIONS; i++) {
                synchronized (shared[1]) {
                    sum += shared[1].value;
                }
            }
            results[3] = (System.nanoTime() - start) / 1e3 / REMOTE_OPERATIONS;
            if (sum == 42) {
                System.out.println(); // keeps sum alive
            }
        }, "probe");
        probe.start();
        probe.join();
        synchronized (doneLock) {
            done[0] = true;
        }
        changer.join();
        System.out.printf("copy_read_ns %.3f%nworker_local_read_ns %.3f%nrefresh_us %.1f%nmonitor_us %.1f%n",
                results[0], results[1], results[2], results[3]);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static Cell[] cells() {
        Cell[] cells = new Cell[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            cells[i] = new Cell();
            cells[i].value = i;
        }
        return cells;
    }

    /** Nanoseconds per field read, over different objects so that no read can be hoisted out of the loop. */
    static double readNanos(Cell[] cells) {
        long sum = 0;
        for (int warm = 0; warm < 3; warm++) {
            for (int i = 0; i < READS / 10; i++) {
                sum += cells[i & (OBJECTS - 1)].value;
            }
        }
        long start = System.nanoTime();
        for (int i = 0; i < READS; i++) {
            sum += cells[i & (OBJECTS - 1)].value;
        }
        double nanos = (double) (System.nanoTime() - start) / READS;
        return sum == 42 ? -nanos : nanos;
    }
}
