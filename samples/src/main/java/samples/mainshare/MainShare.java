package samples.mainshare;

import samples.KernelTime;

/**
 * Main starts helper threads and computes a share of the work itself instead of only waiting (the
 * master-does-a-share shape of many hand-parallelized codes, e.g. JGF's Series, whose master thread
 * runs the last block): the integral of sin over [0, pi] by the midpoint rule, split into
 * threads + 1 equal slices of the interval; main takes the last slice while the helpers compute
 * theirs, then joins them and adds the shares in order. Checked against the exact value, 2.
 *
 * <p>usage: MainShare [helper threads] [intervals] (defaults 3, 40000000)
 */
public final class MainShare {
    private MainShare() {}

    /** The midpoint sum of sin over intervals [from, to) of width {@code width}. */
    static double share(long from, long to, double width) {
        double sum = 0;
        for (long i = from; i < to; i++) {
            sum += Math.sin((i + 0.5) * width);
        }
        return sum * width;
    }

    public static void main(String[] args) throws InterruptedException {
        int helpers = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        long intervals = args.length > 1 ? Long.parseLong(args[1]) : 40_000_000L;
        int shares = helpers + 1;
        double width = Math.PI / intervals;
        double[] partial = new double[shares];
        long kernel = KernelTime.start();
        Thread[] threads = new Thread[helpers];
        for (int s = 0; s < helpers; s++) {
            final int slice = s;
            threads[s] = new Thread(() -> partial[slice] = share(intervals * slice / shares,
                    intervals * (slice + 1) / shares, width), "share-" + s);
            threads[s].start();
        }
        partial[helpers] = share(intervals * helpers / shares, intervals, width);
        double integral = 0;
        for (int s = 0; s < shares; s++) {
            if (s < helpers) {
                threads[s].join();
            }
            integral += partial[s];
        }
        KernelTime.report(kernel);
        double error = Math.abs(integral - 2.0);
        // The midpoint rule's own error, plus room for rounding; a missing share would be off by at least
        // the smallest one, 1 - cos(pi / shares), far more.
        double bound = Math.PI * Math.PI * Math.PI / (24.0 * intervals * intervals) + 1e-6;
        if (!(error <= bound)) {
            throw new IllegalStateException("the integral came out as " + integral + ", off by " + error
                    + ", more than the bound " + bound + ": a share is missing or stale");
        }
        System.out.printf("integral of sin over [0, pi] in %d shares of %d intervals: %.12f%n",
                shares, intervals, integral);
    }
}
