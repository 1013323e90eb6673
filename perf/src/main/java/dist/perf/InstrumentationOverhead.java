package dist.perf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What dist's rewriting costs a program that runs on one node: each sample under
 * {@code -javaagent:dist.jar=nodes=1} against the same sample on a plain JVM, in one run (medians
 * of N runs each). A run's wall time includes JVM start,
 * and the agent's start (embedded coordinator, endpoint, class transformation of the program) is a
 * fixed cost, so each mode's start is measured too (pi with one interval) and subtracted: the
 * printed kernel ratio is (dist - dist start) / (plain - plain start). Every dist run must print
 * exactly what the plain run printed, or the benchmark stops.
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
        System.out.printf("%-36s %10s %10s %8s %12s%n", "sample", "plain ms", "dist ms", "ratio", "kernel ratio");
        for (List<String> sample : samples.isEmpty() ? SAMPLES : samples) {
            String expected = runs.output(SampleRuns.PLAIN, SAMPLES_JAR, sample);
            double plain = runs.medianMillis(SampleRuns.PLAIN, SAMPLES_JAR, sample, repeats, expected);
            double dist = runs.medianMillis(1, SAMPLES_JAR, sample, repeats, expected);
            System.out.printf("%-36s %10.0f %10.0f %7.2fx %11.2fx%n", sample.get(0), plain, dist, dist / plain,
                    (dist - distStart) / (plain - plainStart));
        }
    }
}
