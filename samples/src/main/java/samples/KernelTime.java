package samples;

/**
 * The kernel-time convention of dist's benchmarks ({@code ./dist perf cluster}): a program prints
 * one line {@code kernel time: <milliseconds> ms} on standard error for its parallel part, from
 * before its threads start to after they are joined, so that JVM start-up, a cluster's forming and
 * the sequential set-up and check are not counted (as JESSICA timed its applications). Standard
 * error, because a run's standard output must be what a plain JVM prints.
 */
public final class KernelTime {
    private KernelTime() {}

    /** The start of the kernel, to pass to {@link #report}. */
    public static long start() {
        return System.nanoTime();
    }

    /** Prints the kernel's time since {@code start}. */
    public static void report(long start) {
        System.err.printf("kernel time: %.1f ms%n", (System.nanoTime() - start) / 1e6);
    }
}
