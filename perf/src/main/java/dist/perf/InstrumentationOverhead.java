package dist.perf;

import java.nio.file.Path;
import java.util.ArrayList;
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
 *       This is the cost of the rewritten code itself, which a long-running program pays.
 * </ul>
 * Every dist run must print exactly what the plain run printed, or the benchmark stops.
 *
 * <p>usage: InstrumentationOverhead [--repeats N] [--build DIR] ['Main args' ...]
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
    private static final List<String> STARTUP = List.of("samples.pi.Pi", "1", "1");
    private static final String SAMPLES_JAR = "samples.jar";
    /** Runs of main in one JVM for the steady-state time; the second half is timed. */
    private static final int RUNS = 8;

    private InstrumentationOverhead() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args,
                "usage: InstrumentationOverhead [--repeats N] [--build DIR] ['Main args' ...]\n"
                        + "Runs each sample (default: all seven) plain and with dist at --nodes 1, N times each.",
                Set.of("--repeats", "--build"), Set.of(), true);
        int repeats = options.count("--repeats", 5);
        Path build = Path.of(options.value("--build", "build"));
        List<List<String>> samples = new ArrayList<>();
        for (String sample : options.rest()) {
            samples.add(List.of(sample.split(" ")));
        }
        SampleRuns runs = new SampleRuns(build);
        double plainStart = runs.medianMillis(SampleRuns.PLAIN, SAMPLES_JAR, STARTUP, repeats, null);
        double distStart = runs.medianMillis(1, SAMPLES_JAR, STARTUP, repeats, null);
        System.out.printf("JVM start (pi, 1 interval): plain %.0f ms, dist %.0f ms%n", plainStart, distStart);
        System.out.printf("%-36s %9s %9s %7s %7s %12s %12s %7s%n", "sample", "plain ms", "dist ms", "whole",
                "kernel", "plain steady", "dist steady", "steady");
        for (List<String> sample : samples.isEmpty() ? SAMPLES : samples) {
            double[] m = medians(runs, sample, repeats); // plain, dist, plain steady, dist steady
            System.out.printf("%-36s %9.0f %9.0f %6.2fx %6.2fx %12.0f %12.0f %6.2fx%n", sample.get(0), m[0], m[1],
                    m[1] / m[0], (m[1] - distStart) / (m[0] - plainStart), m[2], m[3], m[3] / m[2]);
        }
    }

    /** Median ms of plain runs, dist runs, and the steady-state kernel in each mode. */
    private static double[] medians(SampleRuns runs, List<String> sample, int repeats) throws Exception {
        String expected = runs.output(SampleRuns.PLAIN, SAMPLES_JAR, sample);
        List<String> repeated = new ArrayList<>(List.of("perfapp.Repeat", String.valueOf(RUNS)));
        repeated.addAll(sample);
        double[][] millis = new double[4][repeats];
        for (int r = 0; r < repeats; r++) {
            millis[0][r] = runs.millis(SampleRuns.PLAIN, SAMPLES_JAR, sample, expected);
            millis[1][r] = runs.millis(1, SAMPLES_JAR, sample, expected);
            millis[2][r] = steadyMillis(runs, SampleRuns.PLAIN, repeated, expected);
            millis[3][r] = steadyMillis(runs, 1, repeated, expected);
        }
        double[] medians = new double[4];
        for (int i = 0; i < 4; i++) {
            medians[i] = SampleRuns.median(millis[i]);
        }
        return medians;
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
