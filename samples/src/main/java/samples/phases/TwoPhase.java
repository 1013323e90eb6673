package samples.phases;

import samples.KernelTime;

/**
 * Two phases over one shared array, separated by start and join only (the fork/join skeleton of
 * array codes such as the JGF Series and Crypt kernels, and the "20-line" shape: an int[] written by
 * some threads, summed by others): in phase 1 each thread fills its slice of a byte[] and of an
 * int[]; main joins them; in phase 2 new threads each read and sum the WHOLE arrays. Nothing else
 * orders the phases: the writes of phase 1 reach the readers because join and start carry them.
 * Every reader's sums are checked against the closed form.
 *
 * <p>usage: TwoPhase [threads] [bytes] (defaults 3 and 3 MiB; the int[] has bytes/4 elements)
 */
public final class TwoPhase {
    private TwoPhase() {}

    /** The byte at index i, 0 to 126: its period, 127, is prime so that slices never line up with it. */
    static byte byteAt(int i) {
        return (byte) (i % 127);
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 3 << 20;
        byte[] bytes = new byte[size];
        int[] ints = new int[size / 4];

        long kernel = KernelTime.start();
        Thread[] writers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int slice = t;
            writers[t] = new Thread(() -> {
                for (int i = (int) ((long) size * slice / threads); i < (long) size * (slice + 1) / threads; i++) {
                    bytes[i] = byteAt(i);
                }
                for (int i = (int) ((long) ints.length * slice / threads); i < (long) ints.length * (slice + 1) / threads; i++) {
                    ints[i] = i;
                }
            }, "writer-" + t);
            writers[t].start();
        }
        for (Thread w : writers) {
            w.join();
        }

        long[] byteSums = new long[threads];
        long[] intSums = new long[threads];
        Thread[] readers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int reader = t;
            readers[t] = new Thread(() -> {
                long sum = 0;
                for (byte b : bytes) {
                    sum += b;
                }
                byteSums[reader] = sum;
                sum = 0;
                for (int v : ints) {
                    sum += v;
                }
                intSums[reader] = sum;
            }, "reader-" + t);
            readers[t].start();
        }
        for (Thread r : readers) {
            r.join();
        }
        KernelTime.report(kernel);

        long periods = size / 127, rest = size % 127;
        long expectedBytes = periods * (126 * 127 / 2) + rest * (rest - 1) / 2;
        long expectedInts = (long) ints.length * (ints.length - 1) / 2;
        for (int t = 0; t < threads; t++) {
            if (byteSums[t] != expectedBytes || intSums[t] != expectedInts) {
                throw new IllegalStateException("reader " + t + " summed " + byteSums[t] + " and " + intSums[t]
                        + ", expected " + expectedBytes + " and " + expectedInts + ": it missed writes of phase 1");
            }
        }
        System.out.printf("phase 1: %d writers filled %d bytes and %d ints%n", threads, size, ints.length);
        for (int t = 0; t < threads; t++) {
            System.out.printf("phase 2: reader %d summed bytes to %d and ints to %d%n", t, byteSums[t], intSums[t]);
        }
    }
}
