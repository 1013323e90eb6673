package dev.distvm.perf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What dist's rewriting costs a program that runs on one node: each sample under
 * {@code -javaagent:dist.jar=nodes=1} against the same sample on a plain JVM, in one run (medians
 * of N runs each, the modes alternating within each repeat so that a slow spell of the machine
 * weighs on both alike). Three ratios:
 * <ul>
 *   <li>whole run: wall time of {@code java ... Main}, JVM start included;
 *   <li>kernel: the same with each mode's start subtracted (pi with one interval: JVM, agent,
 *       embedded coordinator, endpoint). What the agent costs once per program while the kernel
 *       runs (transforming the sample's classes, the JIT compiling dist's and the rewritten code on
 *       the same two cores as the kernel) is still in it;
 *   <li>steady: the kernel once compiled: {@code perfapp.Repeat} runs the sample's {@code main}
 *       {@link #RUNS} times in one JVM and reports the median of the second half of the runs.
 *       This is the cost of the rewritten code itself, which a long-running program pays. Two
 *       ratios: of the medians over the N JVMs, and of the best JVM of each mode. Each JVM's steady
 *       time is the code C2 settled on in that JVM, and for some kernels that choice depends on
 *       when the compile happened: the ray tracer's {@code trace} inlines {@code shadowed} or not
 *       depending on whether its profile was taken among the sky rows (no shadow rays) or just
 *       after, and a plain JVM's steady time is then 490-530 ms or 650-930 ms (10 plain JVMs, 3 of
 *       them slow; 10 dist JVMs the same hour, 1 slow; perf/RESULTS.md). The best of N compares
 *       the code both reach when the JIT decides alike; the medians show how often it did not.
 * </ul>
 * Every dist run must print exactly what the plain run printed, or the benchmark stops.
 *
 * <p>Then the monitor kernels ({@code samples.sync.SyncMethods} and {@code SyncBlocks}): the throughput
 * of {@code synchronized} methods and blocks in calls per second, in steady state (the same
 * {@code perfapp.Repeat} runs), with each thread on a monitor of its own (uncontended) and all threads
 * on one (contended), plain and at one node; the ratio is plain calls/s over dist calls/s, so that
 * above 1 means dist is slower, as for the samples.
 *
 * <p>usage: InstrumentationOverhead [--repeats N] [--build DIR] [--monitors] ['Main args' ...]
 */
public final class InstrumentationOverhead {
    /** Sizes that run 1-4 s on one core (larger than the samples' defaults, which suit a cluster). */
    private static final List<List<String>> SAMPLES = List.of(
            List.of("samples.pi.Pi", "4", "200000000"),
            List.of("samples.raytrace.RayTracer", "4", "1600", "1200"),
            List.of("samples.sor.Sor", "4", "512", "3000"),
            List.of("samples.matmul.MatMul", "4", "1000"),
            List.of("samples.bin.BoundedBuffer", "4", "1000000", "16"),
            List.of("samples.tsp.Tsp", "4", "14"),
            List.of("samples.linkedlist.LinkedListBuild", "4", "2000000"));
    /**
     * Threads, calls per thread and which monitors: a plain steady run takes some 200-250 ms with
     * each thread on its own monitor, some 50-100 ms with all on one (a plain run of 4 x 1 million
     * own calls took 50 ms, in which the threads' starts and the JIT's timing weighed 10 %).
     */
    private static final List<List<String>> MONITOR_KERNELS = List.of(
            List.of("samples.sync.SyncMethods", "4", "5000000", "own"),
            List.of("samples.sync.SyncMethods", "4", "1000000", "shared"),
            List.of("samples.sync.SyncBlocks", "4", "5000000", "own"),
            List.of("samples.sync.SyncBlocks", "4", "1000000", "shared"));
    private static final List<String> STARTUP = List.of("samples.pi.Pi", "1", "1");
    private static final String SAMPLES_JAR = "samples.jar";
    /** Runs of main in one JVM for the steady-state time; the second half is timed. */
    private static final int RUNS = 8;

    private InstrumentationOverhead() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args,
                "usage: InstrumentationOverhead [--repeats N] [--build DIR] [--monitors] ['Main args' ...]\n"
                        + "Runs each sample (default: all seven, then the monitor kernels) plain and with dist at\n"
                        + "--nodes 1, N times each. --monitors: only the monitor kernels.",
                Set.of("--repeats", "--build"), Set.of("--monitors"), true);
        int repeats = options.count("--repeats", 5);
        Path build = Path.of(options.value("--build", "build"));
        List<List<String>> samples = new ArrayList<>();
        for (String sample : options.rest()) {
            samples.add(List.of(sample.split(" ")));
        }
        SampleRuns runs = new SampleRuns(build);
        if (!options.flag("--monitors")) {
            samples(runs, samples.isEmpty() ? SAMPLES : samples, repeats);
        }
        if (options.flag("--monitors") || samples.isEmpty()) {
            monitors(runs, repeats);
        }
    }

    private static void samples(SampleRuns runs, List<List<String>> samples, int repeats) throws Exception {
        double plainStart = runs.medianMillis(SampleRuns.PLAIN, SAMPLES_JAR, STARTUP, repeats, null);
        double distStart = runs.medianMillis(1, SAMPLES_JAR, STARTUP, repeats, null);
        System.out.printf("JVM start (pi, 1 interval): plain %.0f ms, dist %.0f ms%n", plainStart, distStart);
        System.out.printf("%-36s %9s %9s %7s %7s %12s %12s %7s %7s%n", "sample", "plain ms", "dist ms", "whole",
                "kernel", "plain steady", "dist steady", "steady", "best");
        for (List<String> sample : samples) {
            double[] m = figures(runs, sample, repeats); // plain, dist, plain steady, dist steady, best of each
            System.out.printf("%-36s %9.0f %9.0f %6.2fx %6.2fx %12.0f %12.0f %6.2fx %6.2fx%n", sample.get(0), m[0],
                    m[1], m[1] / m[0], (m[1] - distStart) / (m[0] - plainStart), m[2], m[3], m[3] / m[2], m[5] / m[4]);
        }
    }

    /** Calls per second of each monitor kernel in steady state, plain and at one node (medians). */
    private static void monitors(SampleRuns runs, int repeats) throws Exception {
        System.out.printf("%-44s %14s %14s %7s%n", "monitor kernel (steady)", "plain calls/s", "dist calls/s", "ratio");
        for (List<String> kernel : MONITOR_KERNELS) {
            String expected = runs.output(SampleRuns.PLAIN, SAMPLES_JAR, kernel);
            List<String> repeated = repeated(kernel);
            double[] plain = new double[repeats];
            double[] dist = new double[repeats];
            for (int r = 0; r < repeats; r++) {
                plain[r] = steadyMillis(runs, SampleRuns.PLAIN, repeated, expected);
                dist[r] = steadyMillis(runs, 1, repeated, expected);
            }
            double calls = Double.parseDouble(kernel.get(1)) * Double.parseDouble(kernel.get(2));
            double plainRate = calls / SampleRuns.median(plain) * 1e3;
            double distRate = calls / SampleRuns.median(dist) * 1e3;
            System.out.printf("%-44s %14.3g %14.3g %6.2fx%n", String.join(" ", kernel), plainRate, distRate,
                    plainRate / distRate);
        }
    }

    /** The command line that runs {@code program}'s main {@link #RUNS} times in one JVM. */
    private static List<String> repeated(List<String> program) {
        List<String> repeated = new ArrayList<>(List.of("perfapp.Repeat", String.valueOf(RUNS)));
        repeated.addAll(program);
        return repeated;
    }

    /**
     * Median ms of plain runs, dist runs and the steady-state kernel in each mode, then the best
     * steady-state kernel of each mode.
     */
    private static double[] figures(SampleRuns runs, List<String> sample, int repeats) throws Exception {
        String expected = runs.output(SampleRuns.PLAIN, SAMPLES_JAR, sample);
        List<String> repeated = repeated(sample);
        double[][] millis = new double[4][repeats];
        for (int r = 0; r < repeats; r++) {
            millis[0][r] = runs.millis(SampleRuns.PLAIN, SAMPLES_JAR, sample, expected);
            millis[1][r] = runs.millis(1, SAMPLES_JAR, sample, expected);
            millis[2][r] = steadyMillis(runs, SampleRuns.PLAIN, repeated, expected);
            millis[3][r] = steadyMillis(runs, 1, repeated, expected);
        }
        double[] figures = new double[6];
        for (int i = 0; i < 4; i++) {
            figures[i] = SampleRuns.median(millis[i]);
        }
        figures[4] = Arrays.stream(millis[2]).min().orElseThrow();
        figures[5] = Arrays.stream(millis[3]).min().orElseThrow();
        return figures;
    }

    /** The steady-state kernel time {@code perfapp.Repeat} reports, after checking what the program printed. */
    private static double steadyMillis(SampleRuns runs, int nodes, List<String> repeated, String expected)
            throws Exception {
        String printed = runs.output(nodes, SAMPLES_JAR + ":perf-app.jar", repeated);
        int last = printed.lastIndexOf("steady_ms ");
        if (last < 0 || !printed.substring(0, last).equals(expected)) {
            throw new IllegalStateException(repeated + " on " + nodes + " node(s) printed\n" + printed
                    + "where the plain JVM printed\n" + expected);
        }
        return Double.parseDouble(printed.substring(last + "steady_ms ".length()).trim());
    }
}
