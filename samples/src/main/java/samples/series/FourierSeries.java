package samples.series;

import samples.KernelTime;

/**
 * The first {@code n} Fourier coefficients of f(x) = (x + 1)^x on [0, 2] (the function and shape of
 * JGF's Series): coefficient k is two integrals, each by the trapezoid rule over {@code steps}
 * intervals; the threads fill disjoint column blocks of one shared {@code double[2][n]}. Checked
 * against main recomputing every seventh coefficient alone (the same operations, so the same bits),
 * and a_0 against half the integral of f over [0, 2], 2.8819181375 (to the rule's accuracy).
 *
 * <p>usage: FourierSeries [threads] [coefficients] [steps] (defaults 4, 10000, 1000)
 */
public final class FourierSeries {
    private FourierSeries() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        double[][] coefficients = new double[2][n];

        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int from = (int) ((long) n * t / threads);
            int to = (int) ((long) n * (t + 1) / threads);
            workers[t] = new Thread(() -> {
                for (int k = from; k < to; k++) {
                    coefficients[0][k] = coefficient(k, steps, false);
                    coefficients[1][k] = coefficient(k, steps, true);
                }
            }, "coefficients-" + t);
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        KernelTime.report(kernel);

        for (int k = 0; k < n; k += 7) {
            if (coefficients[0][k] != coefficient(k, steps, false) || coefficients[1][k] != coefficient(k, steps, true)) {
                throw new IllegalStateException("coefficient " + k + " came out as (" + coefficients[0][k] + ", "
                        + coefficients[1][k] + "): a block is missing or stale");
            }
        }
        if (Math.abs(coefficients[0][0] - 2.8819181375) > 1e-4) {
            throw new IllegalStateException("a_0 came out as " + coefficients[0][0] + ", not about 2.8819181375");
        }
        System.out.printf("%d coefficients of (x+1)^x on [0,2], %d steps each%n", n, steps);
        for (int k = 0; k < Math.min(4, n); k++) {
            System.out.printf("a_%d %.9f b_%d %.9f%n", k, coefficients[0][k], k, coefficients[1][k]);
        }
        System.out.printf("a_%d %.9e b_%d %.9e%n", n - 1, coefficients[0][n - 1], n - 1, coefficients[1][n - 1]);
    }

    /** a_k (sine false) or b_k (sine true): the integral over [0, 2] of f(x) cos(k pi x) or f(x) sin(k pi x). */
    static double coefficient(int k, int steps, boolean sine) {
        if (k == 0) {
            return sine ? 0 : trapezoid(0, steps, 0, false) / 2;
        }
        return trapezoid(k * Math.PI, steps, 1, sine);
    }

    private static double trapezoid(double omega, int steps, int mode, boolean sine) {
        double width = 2.0 / steps;
        double sum = (f(0, omega, mode, sine) + f(2, omega, mode, sine)) / 2;
        for (int i = 1; i < steps; i++) {
            sum += f(i * width, omega, mode, sine);
        }
        return sum * width;
    }

    private static double f(double x, double omega, int mode, boolean sine) {
        double value = Math.pow(x + 1, x);
        if (mode == 0) {
            return value;
        }
        return value * (sine ? Math.sin(omega * x) : Math.cos(omega * x));
    }
}
