package samples.matmul;

import samples.KernelTime;

/**
 * Non-blocked integer matrix multiplication C = A x B (Ajents, Table 1). A and B are filled from a
 * fixed linear congruential sequence; the rows of C are split into contiguous bands, each computed
 * by a Worker (a Thread subclass) with the textbook i-j-k triple loop. int arithmetic wraps the same
 * way everywhere, so the printed checksum does not depend on the thread count or the schedule.
 *
 * <p>usage: MatMul [threads] [n]
 */
public final class MatMul {
    private MatMul() {}

    static int n;
    static int[][] a, b, c;

    static final class Worker extends Thread {
        private final int from, to;

        Worker(int id, int from, int to) {
            super("matmul-" + id);
            this.from = from;
            this.to = to;
        }

        @Override
        public void run() {
            for (int i = from; i < to; i++) {
                int[] ai = a[i], ci = c[i];
                for (int j = 0; j < n; j++) {
                    int sum = 0;
                    for (int k = 0; k < n; k++) sum += ai[k] * b[k][j];
                    ci[j] = sum;
                }
            }
        }
    }

    static int[][] fill(int n, long seed) {
        int[][] m = new int[n][n];
        long x = seed;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                m[i][j] = (int) ((x >>> 33) % 201) - 100; // -100 .. 100
            }
        }
        return m;
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        n = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        a = fill(n, 1);
        b = fill(n, 2);
        c = new int[n][n];
        long kernel = KernelTime.start();
        Worker[] workers = new Worker[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Worker(t, n * t / threads, n * (t + 1) / threads);
            workers[t].start();
        }
        for (Worker w : workers) w.join();
        KernelTime.report(kernel);
        long sum = 0, hash = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                sum += c[i][j];
                hash = hash * 1_000_003L + c[i][j];
            }
        }
        System.out.printf("C = A x B, n = %d: sum %d hash %016x corner %d%n", n, sum, hash, c[n - 1][n - 1]);
    }
}
