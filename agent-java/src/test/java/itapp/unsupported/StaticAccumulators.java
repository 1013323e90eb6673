package itapp.unsupported;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads whose code reaches JDK objects through static fields, not through their tasks: a
 * static AtomicLong, and an ArrayList behind a field declared Object that a helper method of
 * another class uses. They stay home, where the program runs as on one JVM; a thread whose code
 * uses only the statics of a class holding an array travels.
 */
public final class StaticAccumulators {
    static final AtomicLong TOTAL = new AtomicLong();

    private StaticAccumulators() {}

    static final class Registry {
        static Object log = new ArrayList<String>();

        @SuppressWarnings("unchecked")
        static void record(String line) {
            synchronized (log) {
                ((List<String>) log).add(line);
            }
        }

        @SuppressWarnings("unchecked")
        static List<String> sorted() {
            List<String> lines = new ArrayList<>((List<String>) log);
            lines.sort(null);
            return lines;
        }
    }

    static final class Partials {
        static long[] values = new long[2];
    }

    public static void main(String[] args) throws InterruptedException {
        Registry.sorted(); // initialized before the threads start: its field is judged by its value
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int mine = i;
            threads.add(new Thread(() -> TOTAL.addAndGet(sumTo(1000 * (mine + 1))), "summer-" + i));
            threads.add(new Thread(() -> Registry.record("logger-" + mine + " " + sumTo(100)), "logger-" + i));
            threads.add(new Thread(() -> Partials.values[mine] = sumTo(10 * (mine + 1)), "free-" + i));
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println(TOTAL.get() + " " + Registry.sorted() + " " + Partials.values[0] + " " + Partials.values[1]);
    }

    private static long sumTo(int n) {
        long sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += i;
        }
        return sum;
    }
}
