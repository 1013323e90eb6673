package itapp.unsupported;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Threads that start with shareable data but then store a java.util.ArrayList into a shared
 * object and release it: a thread that runs on a worker cannot send that home, so the run must
 * stop with a message that names the class, not go on with a list the home never sees. The list
 * comes from a factory called through an interface, which the placement's look at the thread's
 * code does not follow (a thread whose code shows the store stays home: PublishesJdkObjects).
 */
public final class StoresJdkCollection {
    static final class Holder {
        final Supplier<List<String>> factory = () -> new ArrayList<>();
        List<String> names;
        int writers;
        boolean open;

        /** Every thread is placed before any of them stores its list. */
        synchronized void awaitOpen() throws InterruptedException {
            while (!open) {
                wait();
            }
        }

        synchronized void open() {
            open = true;
            notifyAll();
        }
    }

    private StoresJdkCollection() {}

    public static void main(String[] args) throws InterruptedException {
        Holder holder = new Holder();
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(() -> {
                try {
                    holder.awaitOpen();
                } catch (InterruptedException e) {
                    return;
                }
                synchronized (holder) {
                    holder.names = holder.factory.get();
                    holder.writers++;
                }
            }, "storer-" + i);
            threads[i].start();
        }
        holder.open();
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("writers " + holder.writers);
    }
}
