package itapp.unsupported;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads that capture a java.util.ArrayList, which dist cannot share yet: they must stay at the
 * home, so the program prints what it prints on one JVM.
 */
public final class CapturesJdkCollection {
    private CapturesJdkCollection() {}

    public static void main(String[] args) throws InterruptedException {
        List<String> names = new ArrayList<>();
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            String name = "item-" + i;
            threads[i] = new Thread(() -> {
                synchronized (names) {
                    names.add(name);
                }
            }, "collector-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        names.sort(null);
        System.out.println(names);
    }
}
