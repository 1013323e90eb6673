package itapp;

/** Starts two named threads (a subclass and a Runnable) and joins them. */
public final class TwoThreads {
    private TwoThreads() {}

    static final class Counter extends Thread {
        int count;

        Counter() {
            super("counter");
        }

        @Override
        public void run() {
            for (int i = 0; i < 1000; i++) {
                count++;
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Counter counter = new Counter();
        counter.start();
        int[] box = new int[1];
        Thread adder = new Thread(() -> box[0] = 42, "adder");
        adder.start();
        counter.join();
        adder.join();
        System.out.println("count=" + counter.count + " box=" + box[0]);
    }
}
