package itapp;

import java.util.Arrays;
import java.util.concurrent.CyclicBarrier;

/**
 * Shapes of real programs over arrays large enough to travel on demand (32 MB): two phases over one
 * array, a spin barrier on plain elements of a large array behind a volatile field, slices sorted,
 * filled and copied by JDK code, and double buffering over two arrays swapped behind a volatile
 * reference by a barrier's action. Prints sums that a plain JVM prints too.
 */
public final class OnDemandShapes {
    static final int THREADS = 4;
    static final int N = 8 << 20; // 32 MB of ints
    static volatile int round;
    static volatile double[] current;
    static double[] next;

    public static void main(String[] args) throws Exception {
        int[] data = new int[N];
        for (int i = 0; i < N; i++) {
            data[i] = (i * 7) % 1013;
        }
        long[] out = new long[THREADS * 3];
        run("transform", me -> {
            for (int i = N / THREADS * me; i < N / THREADS * (me + 1); i++) {
                data[i] = data[i] * 3 + me;
            }
        });
        run("sum-another", me -> {
            int other = (me + 1) % THREADS;
            long sum = 0;
            for (int i = N / THREADS * other; i < N / THREADS * (other + 1); i += 3) {
                sum += data[i];
            }
            out[me] = sum;
        });
        int[] arrived = new int[N];
        run("spin", me -> {
            for (int r = 1; r <= 3; r++) {
                data[me * 1_000_003 % N] += r;
                arrived[me * (N / THREADS) + r] = 1;
                int seen;
                do {
                    seen = round >= 0 ? 0 : -1; // the volatile read a spinning thread makes on the way
                    for (int k = 0; k < THREADS; k++) {
                        seen += arrived[k * (N / THREADS) + r];
                    }
                    Thread.onSpinWait();
                } while (seen < THREADS);
                if (me == 0) {
                    round = r;
                }
            }
        });
        int[] keys = new int[N];
        long seed = 11;
        for (int i = 0; i < N; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            keys[i] = (int) (seed >>> 40);
        }
        int[] filled = new int[N];
        run("sorter", me -> {
            int from = N / THREADS * me, to = N / THREADS * (me + 1);
            Arrays.sort(keys, from, to);
            Arrays.fill(filled, from, to, me + 1);
            int[] window = new int[1000];
            System.arraycopy(keys, from + 500, window, 0, window.length);
            out[THREADS + me] = Arrays.stream(window).asLongStream().sum() + Arrays.hashCode(Arrays.copyOfRange(keys, from, from + 10));
        });
        int m = 4 << 20; // 32 MB of doubles
        current = new double[m];
        next = new double[m];
        for (int i = 0; i < m; i++) {
            current[i] = i % 100;
        }
        CyclicBarrier swap = new CyclicBarrier(THREADS, () -> {
            double[] done = next;
            next = current;
            current = done;
        });
        run("smooth", me -> {
            try {
                for (int r = 0; r < 2; r++) {
                    double[] in = current, to = next;
                    for (int i = Math.max(1, m / THREADS * me); i < Math.min(m - 1, m / THREADS * (me + 1)); i++) {
                        to[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
                    }
                    swap.await();
                }
                double sum = 0;
                for (int i = 0; i < m; i += 4099) {
                    sum += current[i];
                }
                out[2 * THREADS + me] = (long) (sum * 1000);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long total = 0;
        for (int v : data) {
            total += v;
        }
        boolean sorted = true;
        for (int t = 0; t < THREADS; t++) {
            for (int i = N / THREADS * t + 1; i < N / THREADS * (t + 1); i++) {
                sorted &= keys[i - 1] <= keys[i];
            }
        }
        long ones = 0;
        for (int v : filled) {
            ones += v;
        }
        System.out.println("data " + total + " round " + round + " sorted " + sorted + " filled " + ones);
        System.out.println("out " + Arrays.toString(out) + " middle " + current[m / 2]);
    }

    /** Runs {@code body} on {@link #THREADS} threads named {@code name-i} and joins them. */
    private static void run(String name, java.util.function.IntConsumer body) throws InterruptedException {
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int me = t;
            threads[t] = new Thread(() -> body.accept(me), name + "-" + t);
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
