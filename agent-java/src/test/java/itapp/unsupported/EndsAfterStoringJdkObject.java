package itapp.unsupported;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads that store a java.util.ArrayList into a static array through a helper that takes an
 * Object (the placement's look at the thread's code sees no JDK class stored), then sleep and end,
 * with no monitor between: the store reaches the release of a tick, and the thread ends after that
 * failed. The run must stop before {@code main}'s joins return: it would print the array without
 * the lists.
 */
public final class EndsAfterStoringJdkObject {
    static final Object[] RESULTS = new Object[2];

    private EndsAfterStoringJdkObject() {}

    static void keep(int slot, Object result) {
        RESULTS[slot] = result;
    }

    public static void main(String[] args) throws InterruptedException {
        Thread[] threads = new Thread[RESULTS.length];
        for (int i = 0; i < threads.length; i++) {
            int slot = i;
            threads[i] = new Thread(() -> {
                List<Integer> result = new ArrayList<>();
                result.add(slot);
                keep(slot, result);
                try {
                    Thread.sleep(2); // a tick of the staleness bound meets the list, and the end follows its failure closely
                } catch (InterruptedException e) {
                    return;
                }
            }, "keeper-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println(RESULTS[0] + " " + RESULTS[1]);
    }
}
