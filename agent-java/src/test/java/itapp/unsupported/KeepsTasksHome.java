package itapp.unsupported;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads whose task reaches application objects first and a java.util.ArrayList after them: the
 * tasks stay at the home, and the application objects they reached must stay local there (no
 * object homed, no write tracked), as the threads and main go on writing them.
 */
public final class KeepsTasksHome {
    /** Long enough that a keeper still writes its Tally while main starts the next one. */
    private static final int ROUNDS = 200_000;

    private KeepsTasksHome() {}

    static final class Tally {
        long sum;
    }

    static final class Task implements Runnable {
        private final Tally tally;
        private final List<String> names;
        private final int index;

        Task(Tally tally, List<String> names, int index) {
            this.tally = tally;
            this.names = names;
            this.index = index;
        }

        @Override
        public void run() {
            synchronized (names) {
                names.add("item-" + index);
                for (int i = 0; i < ROUNDS; i++) {
                    tally.sum += i;
                }
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Tally tally = new Tally();
        List<String> names = new ArrayList<>();
        Thread[] threads = new Thread[8];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(new Task(tally, names, i), "keeper-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < ROUNDS; i++) {
            tally.sum -= i;
        }
        names.sort(null);
        System.out.println(names + " " + tally.sum);
    }
}
