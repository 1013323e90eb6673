package itapp;

import java.io.IOException;

/**
 * A running JVM to profile: round after round, two threads increment one counter under its monitor
 * and each adds into an array only it writes; main prints each round's results, which do not
 * depend on timing, until its standard input ends.
 */
public final class ProfiledWork {
    static final int INCREMENTS = 20_000;
    private static volatile boolean inputEnded;

    private ProfiledWork() {}

    static final class Counter {
        private long count;

        synchronized void add() {
            count++;
        }

        synchronized long count() {
            return count;
        }
    }

    public static void main(String[] args) throws Exception {
        Thread input = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // only the end matters
                }
            } catch (IOException ignored) {
                // an input that fails has ended too
            }
            inputEnded = true;
        });
        input.setDaemon(true);
        input.start();
        System.out.println("ready");
        for (int round = 1; !inputEnded; round++) {
            System.out.println("round " + round + ": " + round());
            Thread.sleep(20);
        }
        System.out.println("done");
    }

    private static String round() throws InterruptedException {
        Counter counter = new Counter();
        long[][] sums = new long[2][1000];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            long[] own = sums[t];
            threads[t] = new Thread(() -> {
                for (int i = 0; i < INCREMENTS; i++) {
                    counter.add();
                    own[i % own.length] += i;
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        StringBuilder result = new StringBuilder("counter " + counter.count() + ", sums");
        for (long[] own : sums) {
            long sum = 0;
            for (long value : own) {
                sum += value;
            }
            result.append(' ').append(sum);
        }
        return result.toString();
    }
}
