package itapp;

/**
 * Four threads that each compute in small steps for about the given number of seconds (a tenth
 * of a second of sleep per step), then the total and how many distinct processes ran them.
 * Placed on a cluster, its threads keep running on the workers for the whole time: a program to
 * stop, starve or cut a coordinator under.
 */
public final class SteadyWork {
    static final int THREADS = 4;

    private SteadyWork() {}

    public static void main(String[] args) throws InterruptedException {
        int steps = Integer.parseInt(args[0]) * 10;
        long[] sums = new long[THREADS];
        long[] pids = new long[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                pids[id] = ProcessHandle.current().pid();
                long sum = 0;
                for (int step = 0; step < steps; step++) {
                    for (int i = 0; i < 1000; i++) {
                        sum += (long) (id + 1) * i;
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                sums[id] = sum;
            }, "steady-" + t);
            threads[t].start();
        }
        System.out.println("steady started");
        System.out.flush();
        long total = 0;
        for (int t = 0; t < THREADS; t++) {
            threads[t].join();
            total += sums[t];
        }
        System.out.println("total=" + total + " processes=" + java.util.Arrays.stream(pids).distinct().count());
    }

    /** What {@link #main} prints as its total for {@code seconds}. */
    public static long expectedTotal(int seconds) {
        long perStep = 999L * 1000 / 2;
        long total = 0;
        for (int t = 0; t < THREADS; t++) {
            total += (t + 1) * perStep * seconds * 10L;
        }
        return total;
    }
}
