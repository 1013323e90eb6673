package itapp.unsupported;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shapes of real programs whose threads make JDK objects and put them where other threads find
 * them: each collector counts in a HashMap of its own and stores the sorted keys, an ArrayList,
 * into a shared array; two spawners start threads of their own at once and keep them in a shared
 * array to join them. On a worker the store would stop the run at its release; the placement sees
 * it in the threads' code and keeps them home, and the output is a plain JVM's.
 */
public final class PublishesJdkObjects {
    private PublishesJdkObjects() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = 4;
        Object[] keys = new Object[threads];
        long[] sums = new long[threads];
        Thread[] collectors = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            collectors[t] = new Thread(() -> {
                Map<Integer, Integer> counts = new HashMap<>();
                for (int i = 0; i < 100_000; i++) {
                    counts.merge((i * 31 + id) % 97, 1, Integer::sum);
                }
                List<Integer> sorted = new ArrayList<>(counts.keySet());
                sorted.sort(null);
                long sum = 0;
                for (int key : sorted) {
                    sum += (long) key * counts.get(key);
                }
                sums[id] = sum;
                keys[id] = sorted;
            }, "collector-" + t);
            collectors[t].start();
        }
        for (Thread t : collectors) {
            t.join();
        }
        for (int t = 0; t < threads; t++) {
            List<?> sorted = (List<?>) keys[t];
            System.out.println("collector " + t + ": sum " + sums[t] + ", keys " + sorted.size() + " from " + sorted.get(0));
        }
        // Two spawners start their children at once: the starts of two home threads reach a worker in either order.
        Thread[] children = new Thread[6];
        long[] results = new long[children.length];
        Thread[] spawners = new Thread[2];
        for (int s = 0; s < spawners.length; s++) {
            int first = s * 3;
            spawners[s] = new Thread(() -> {
                for (int c = first; c < first + 3; c++) {
                    int child = c;
                    children[c] = new Thread(() -> results[child] = (long) child * child);
                    children[c].start();
                }
                for (int c = first; c < first + 3; c++) {
                    try {
                        children[c].join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "spawner-" + s);
            spawners[s].start();
        }
        for (Thread spawner : spawners) {
            spawner.join();
        }
        System.out.println("children " + java.util.Arrays.toString(results));
    }
}
