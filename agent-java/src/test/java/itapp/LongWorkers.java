package itapp;

/**
 * Main starts two threads that take a shared monitor over and over for minutes, each saying on
 * which process it runs, joins them and prints a result: a run whose worker a test can kill while
 * an application thread runs there (and holds or asks for a monitor of the home's).
 */
public final class LongWorkers {
    private static final long RUN_MILLIS = 180_000;

    private int count;

    private LongWorkers() {}

    public static void main(String[] args) throws InterruptedException {
        LongWorkers shared = new LongWorkers();
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                System.out.println(Thread.currentThread().getName() + " runs in pid " + ProcessHandle.current().pid());
                long end = System.currentTimeMillis() + RUN_MILLIS;
                while (System.currentTimeMillis() < end) {
                    synchronized (shared) {
                        shared.count++;
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "long-worker-" + t);
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (shared) {
            System.out.println("result " + shared.count);
        }
    }
}
