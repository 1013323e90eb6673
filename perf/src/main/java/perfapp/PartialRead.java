package perfapp;

/**
 * A shared array of 64 MB, of which each of two threads reads one eighth: one runs on the worker
 * (placement fills the least-loaded node first), one at the home. Under dist the report says how
 * many object-space bytes the worker received: what reading an eighth moved. Prints the sums, the
 * same on every run and on a plain JVM.
 */
public final class PartialRead {
    static final int ELEMENTS = 8 << 20;

    private PartialRead() {}

    public static void main(String[] args) throws InterruptedException {
        double[] large = new double[ELEMENTS];
        for (int i = 0; i < ELEMENTS; i++) {
            large[i] = i % 1000;
        }
        double[] sums = new double[2];
        Thread[] readers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int eighth = t;
            readers[t] = new Thread(() -> {
                double sum = 0;
                for (int i = eighth * (ELEMENTS / 8); i < (eighth + 1) * (ELEMENTS / 8); i++) {
                    sum += large[i];
                }
                sums[eighth] = sum;
            }, "reader-" + t);
            readers[t].start();
        }
        for (Thread reader : readers) {
            reader.join();
        }
        System.out.println("eighths summed to " + sums[0] + " and " + sums[1]);
    }
}
