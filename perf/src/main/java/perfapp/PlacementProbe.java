package perfapp;

/**
 * Starts threads that do almost nothing and prints, in microseconds, how long after {@code main}
 * called {@code start()} the last of them began to run: on one JVM a thread's start, under dist a
 * placed thread's trip to its node (the start message, class loading there, the copies it
 * brings). {@code System.nanoTime} is the machine's monotonic clock, the same in every JVM on it.
 *
 * <p>usage: PlacementProbe [threads] (default 2: at 2 nodes, one placed on the worker, one at home)
 */
public final class PlacementProbe {
    private PlacementProbe() {}

    static final long[] BEGAN = new long[64];

    /** A task with the usual state of one: a few fields and an array, read and written. */
    static final class Task implements Runnable {
        private final int index;
        private final int[] data = new int[16];
        private double sum;

        Task(int index) {
            this.index = index;
        }

        @Override
        public void run() {
            BEGAN[index] = System.nanoTime();
            for (int i = 0; i < data.length; i++) {
                data[i] = i * index;
                sum += Math.sqrt(data[i]);
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        if (threads < 1 || threads > BEGAN.length) {
            throw new IllegalArgumentException("threads must be 1 to " + BEGAN.length);
        }
        Thread[] started = new Thread[threads];
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            started[t] = new Thread(new Task(t), "probe-" + t);
            started[t].start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        long last = 0;
        for (int t = 0; t < threads; t++) {
            last = Math.max(last, BEGAN[t] - start);
        }
        System.out.println(last / 1000);
    }
}
