package itapp;

/**
 * Rounds of threads that each compute a few microseconds, then one thread that computes for a
 * while: the brief task's first threads are placed, and once the nodes said how little they
 * computed its later ones run at the home; the long one is another task and is placed.
 */
public final class BriefTasks {
    private BriefTasks() {}

    public static void main(String[] args) throws InterruptedException {
        long[] sums = new long[200];
        for (int round = 0; round < 20; round++) {
            Thread[] threads = new Thread[10];
            for (int i = 0; i < threads.length; i++) {
                int task = round * threads.length + i;
                threads[i] = new Thread(() -> sums[task] = task * (long) task, "brief-" + task);
                threads[i].start();
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        long[] total = new long[1];
        Thread longOne = new Thread(() -> {
            for (long i = 0; i < 200_000_000L; i++) {
                total[0] += i % 7;
            }
        }, "long-0");
        longOne.start();
        longOne.join();
        long sum = 0;
        for (long s : sums) {
            sum += s;
        }
        System.out.println(sum + " " + total[0]);
    }
}
