package itapp.unsupported;

/**
 * Threads that count under a lock on a string, which each node has its own of: reached through a
 * field ({@code field}), the class file shows what is locked and the threads stay home; through a
 * local variable ({@code local}), it does not, and the first worker thread to lock it stops the run.
 */
public final class LocksValues {
    private LocksValues() {}

    static final class Box {
        long value;
        String tag = "box";
    }

    public static void main(String[] args) throws InterruptedException {
        boolean throughField = args[0].equals("field");
        Box box = new Box();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(throughField ? () -> countLockingTheField(box) : () -> countLockingALocal(box), "counter-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println(box.value);
    }

    private static void countLockingTheField(Box box) {
        for (int i = 0; i < 20_000; i++) {
            synchronized (box.tag) {
                box.value++;
            }
        }
    }

    private static void countLockingALocal(Box box) {
        Object lock = box.tag;
        for (int i = 0; i < 20_000; i++) {
            synchronized (lock) {
                box.value++;
            }
        }
    }
}
