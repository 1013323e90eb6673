package itapp.unsupported;

/**
 * Threads that count under a lock on a string, which each node has its own of: reached through a
 * field ({@code field}) or a local variable given its value ({@code local}), the class file shows
 * what is locked and the threads stay home; through a method declared to return an Object
 * ({@code hidden}), it does not, and the first worker thread to lock it stops the run.
 */
public final class LocksValues {
    private LocksValues() {}

    static final class Box {
        long value;
        String tag = "box";
    }

    public static void main(String[] args) throws InterruptedException {
        String through = args[0];
        Box box = new Box();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            Runnable counting = switch (through) {
                case "field" -> () -> countLockingTheField(box);
                case "local" -> () -> countLockingALocal(box);
                default -> () -> countLockingWhatAMethodReturns(box);
            };
            threads[t] = new Thread(counting, "counter-" + t);
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

    private static void countLockingWhatAMethodReturns(Box box) {
        Object lock = tagOf(box);
        for (int i = 0; i < 20_000; i++) {
            synchronized (lock) {
                box.value++;
            }
        }
    }

    private static Object tagOf(Box box) {
        return box.tag;
    }
}
