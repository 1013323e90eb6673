package samples.montecarlo;

import java.util.Arrays;
import samples.KernelTime;

/**
 * A Monte Carlo run whose threads each produce result arrays (the shape of JGF's MonteCarlo): task
 * k simulates a price path of {@code steps} steps by a geometric random walk from its own seed and
 * stores a new array of every {@value #RECORD_EVERY}th price in {@code paths[k]}; thread t runs tasks
 * t, t + threads, ... Main then reads every path, from whichever thread made it, for the mean and
 * spread of the final prices.
 * Checked: every seventh path against main simulating it alone (the same operations and seed, so
 * the same bits), and the mean against the walk's expectation within a wide statistical bound.
 *
 * <p>usage: MonteCarlo [threads] [tasks] [steps] (defaults 4, 20000, 1000; steps rounded down to a multiple of 10)
 */
public final class MonteCarlo {
    private static final double DRIFT = 0.0001;
    private static final double VOLATILITY = 0.01;
    private static final int RECORD_EVERY = 10;

    private MonteCarlo() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int steps = (args.length > 2 ? Integer.parseInt(args[2]) : 1_000) / RECORD_EVERY * RECORD_EVERY;
        double[][] paths = new double[tasks][];

        long kernel = KernelTime.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int first = t;
            workers[t] = new Thread(() -> {
                for (int k = first; k < tasks; k += threads) {
                    paths[k] = path(k, steps);
                }
            }, "tasks-" + t);
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        KernelTime.report(kernel);

        double sum = 0;
        double squares = 0;
        for (int k = 0; k < tasks; k++) {
            if (paths[k] == null || paths[k].length != steps / RECORD_EVERY) {
                throw new IllegalStateException("task " + k + "'s path is missing");
            }
            if (k % 7 == 0 && !Arrays.equals(paths[k], path(k, steps))) {
                throw new IllegalStateException("task " + k + "'s path differs from main's: stale or torn");
            }
            double last = paths[k][paths[k].length - 1];
            sum += last;
            squares += last * last;
        }
        double mean = sum / tasks;
        double spread = Math.sqrt(Math.max(0, squares / tasks - mean * mean));
        double expected = 100 * Math.exp(DRIFT * steps);
        if (Math.abs(mean - expected) > 10 * spread / Math.sqrt(tasks) + 1e-9) {
            throw new IllegalStateException("the mean final price " + mean + " is far from " + expected);
        }
        System.out.printf("%d paths of %d steps: mean final price %.8f, spread %.8f%n", tasks, steps, mean, spread);
    }

    /**
     * A geometric random walk from 100, its increments drawn by a generator seeded with the task;
     * every {@value #RECORD_EVERY}th price is kept ({@code steps} is a multiple of it).
     */
    static double[] path(int task, int steps) {
        double[] prices = new double[steps / RECORD_EVERY];
        long seed = 0x9E3779B97F4A7C15L * (task + 1);
        double price = 100;
        for (int s = 0; s < steps; s++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            double u1 = ((seed >>> 11) + 1) / 9007199254740993.0;
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            double u2 = (seed >>> 11) / 9007199254740992.0;
            double normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
            price *= Math.exp(DRIFT - VOLATILITY * VOLATILITY / 2 + VOLATILITY * normal);
            if ((s + 1) % RECORD_EVERY == 0) {
                prices[s / RECORD_EVERY] = price;
            }
        }
        return prices;
    }
}
