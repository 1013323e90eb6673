package itapp;

/**
 * A shared array larger than any one message could once be (64 MiB): main allocates 96 MiB, two
 * threads each fill half, each saying on which process it runs, and main checks every byte. The
 * array travels to the worker whole and its half comes back as a release, each a message of tens
 * of mebibytes.
 */
public final class LargeSharedArray {
    private static final int BYTES = 96 << 20;

    private LargeSharedArray() {}

    public static void main(String[] args) throws InterruptedException {
        byte[] shared = new byte[BYTES];
        Thread[] fillers = new Thread[2];
        for (int t = 0; t < fillers.length; t++) {
            int from = t * (BYTES / fillers.length);
            int to = from + BYTES / fillers.length;
            fillers[t] = new Thread(() -> {
                System.out.println(Thread.currentThread().getName() + " runs in pid " + ProcessHandle.current().pid());
                for (int i = from; i < to; i++) {
                    shared[i] = expected(i);
                }
            }, "filler-" + t);
            fillers[t].start();
        }
        for (Thread filler : fillers) {
            filler.join();
        }
        for (int i = 0; i < BYTES; i++) {
            if (shared[i] != expected(i)) {
                System.out.println("large array: byte " + i + " is " + shared[i] + ", expected " + expected(i));
                System.exit(1);
            }
        }
        System.out.println("large array: all " + BYTES + " bytes right");
    }

    private static byte expected(int index) {
        return (byte) (index * 31 + (index >>> 16) + 1);
    }
}
