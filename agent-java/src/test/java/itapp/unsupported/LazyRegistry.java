package itapp.unsupported;

import java.util.ArrayList;
import java.util.List;

/**
 * A registry class whose static list is made by its class initializer, first used by the threads
 * (so not initialized when they start): the placement finds the list in the initializer's code and
 * keeps the threads home, where the list is the home's own.
 */
public final class LazyRegistry {
    static final class Registry {
        static final List<Integer> ENTRIES = new ArrayList<>();

        static synchronized void add(int entry) {
            ENTRIES.add(entry);
        }

        static synchronized long sum() {
            long sum = 0;
            for (int entry : ENTRIES) {
                sum += entry;
            }
            return sum;
        }
    }

    private LazyRegistry() {}

    public static void main(String[] args) throws InterruptedException {
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            int base = t * 1000;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    Registry.add(base + i);
                }
            }, "registrar-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("entries " + Registry.ENTRIES.size() + " sum " + Registry.sum());
    }
}
