package samples.pi;

import samples.KernelTime;

/**
 * pi by numerical integration of 4/(1+x^2) over [0,1] with one thread per slice of the interval
 * (JESSICA §4.1). Each thread writes its partial sum to its own slot; main adds them in order after
 * join, so the printed value is the same on every run.
 *
 * <p>usage: Pi [threads] [intervals]
 */
public final class Pi {
    private Pi() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long intervals = args.length > 1 ? Long.parseLong(args[1]) : 50_000_000L;
        double width = 1.0 / intervals;
        double[] partial = new double[threads];
        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int slice = t;
            workers[t] = new Thread(() -> {
                long from = intervals * slice / threads;
                long to = intervals * (slice + 1) / threads;
                double sum = 0;
                for (long i = from; i < to; i++) {
                    double x = (i + 0.5) * width;
                    sum += 4.0 / (1.0 + x * x);
                }
                partial[slice] = sum * width;
            }, "pi-" + t);
            workers[t].start();
        }
        double pi = 0;
        for (int t = 0; t < threads; t++) {
            workers[t].join();
            pi += partial[t];
        }
        KernelTime.report(kernel);
        System.out.printf("pi with %d threads and %d intervals: %.12f%n", threads, intervals, pi);
        System.out.printf("error: %.3e%n", Math.abs(pi - Math.PI));
    }
}
