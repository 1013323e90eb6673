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
 * "kernel" ratio is (dist - dist start) / (plain - plain start). That start does not include what
 * the agent costs once per program while the kernel runs (transforming the sample's own classes,
 * compiling dist's and the rewritten code on the same two cores), so each sample also runs with
 * less work (the "small" arguments) and the "marginal" ratio compares what the extra work costs
 * in each mode: (dist - dist small) / (plain - plain small), the steady-state cost of the
 * rewritten code. Every dist run must print exactly what the plain run printed, or the benchmark
 * stops.
 *
 * <p>usage: InstrumentationOverhead [--repeats N] [--build DIR] ['Main args' ...] (a sample given with
 * the default arguments gets the default small arguments)
 */
public final class InstrumentationOverhead {
    /** A sample's arguments, and arguments for less of the same work (null: not measured). */
    private record Sample(List<String> full, List<String> small) {}

    /** Sizes that run 1-4 s on one core (larger than the samples' defaults, which suit a cluster). */
    private static final List<Sample> SAMPLES = List.of(
            new Sample(List.of("samples.pi.Pi", "4", "200000000"), List.of("samples.pi.Pi", "4", "100000000")),
            new Sample(List.of("samples.raytrace.RayTracer", "4", "1600", "1200"),
                    List.of("samples.raytrace.RayTracer", "4", "1600", "600")),
            new Sample(List.of("samples.sor.Sor", "4", "512", "3000"), List.of("samples.sor.Sor", "4", "512", "1500")),
            new Sample(List.of("samples.matmul.MatMul", "4", "1000"), List.of("samples.matmul.MatMul", "4", "794")),
            new Sample(List.of("samples.bin.BoundedBuffer", "4", "1000000", "16"),
                    List.of("samples.bin.BoundedBuffer", "4", "500000", "16")),
            new Sample(List.of("samples.tsp.Tsp", "4", "14"), List.of("samples.tsp.Tsp", "4", "13")),
            new Sample(List.of("samples.linkedlist.LinkedListBuild", "4", "2000000"),
                    List.of("samples.linkedlist.LinkedListBuild", "4", "1000000")));
    private static final List<String> STARTUP = List.of("samples.pi.Pi", "1", "1");
    private static final String SAMPLES_JAR = "samples.jar";

    private InstrumentationOverhead() {}

    /**
     * Median ms of plain full, dist full, plain small and dist small runs (small: NaN without small
     * arguments). The four alternate within each repeat, so that a slow spell of the machine
     * weighs on both modes alike; every run must print what the plain JVM printed.
     */
    private static double[] medians(SampleRuns runs, Sample sample, int repeats) throws Exception {
        String expectedFull = runs.output(SampleRuns.PLAIN, SAMPLES_JAR, sample.full());
        String expectedSmall = sample.small() == null ? null : runs.output(SampleRuns.PLAIN, SAMPLES_JAR, sample.small());
        double[][] millis = new double[4][repeats];
        for (int r = 0; r < repeats; r++) {
            millis[0][r] = runs.millis(SampleRuns.PLAIN, SAMPLES_JAR, sample.full(), expectedFull);
            millis[1][r] = runs.millis(1, SAMPLES_JAR, sample.full(), expectedFull);
            if (sample.small() != null) {
                millis[2][r] = runs.millis(SampleRuns.PLAIN, SAMPLES_JAR, sample.small(), expectedSmall);
                millis[3][r] = runs.millis(1, SAMPLES_JAR, sample.small(), expectedSmall);
            }
        }
        double[] medians = new double[4];
        for (int i = 0; i < 4; i++) {
            medians[i] = i >= 2 && sample.small() == null ? Double.NaN : SampleRuns.median(millis[i]);
        }
        return medians;
    }

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args,
                "usage: InstrumentationOverhead [--repeats N] [--build DIR] ['Main args' ...]\n"
                        + "Runs each sample (default: all seven) plain and with dist at --nodes 1, N times each.",
                Set.of("--repeats", "--build"), Set.of(), true);
        int repeats = options.count("--repeats", 5);
        Path build = Path.of(options.value("--build", "build"));
        List<Sample> samples = new ArrayList<>();
        for (String sample : options.rest()) {
            List<String> full = List.of(sample.split(" "));
            samples.add(SAMPLES.stream().filter(known -> known.full().equals(full)).findFirst()
                    .orElse(new Sample(full, null)));
        }
        SampleRuns runs = new SampleRuns(build);
        double plainStart = runs.medianMillis(SampleRuns.PLAIN, SAMPLES_JAR, STARTUP, repeats, null);
        double distStart = runs.medianMillis(1, SAMPLES_JAR, STARTUP, repeats, null);
        System.out.printf("JVM start (pi, 1 interval): plain %.0f ms, dist %.0f ms%n", plainStart, distStart);
        System.out.printf("%-36s %10s %10s %8s %8s %16s %16s %9s%n", "sample", "plain ms", "dist ms", "ratio",
                "kernel", "plain small ms", "dist small ms", "marginal");
        for (Sample sample : samples.isEmpty() ? SAMPLES : samples) {
            double[] m = medians(runs, sample, repeats); // plain, dist, plain small, dist small
            System.out.printf("%-36s %10.0f %10.0f %7.2fx %7.2fx", sample.full().get(0), m[0], m[1],
                    m[1] / m[0], (m[1] - distStart) / (m[0] - plainStart));
            if (sample.small() == null) {
                System.out.println("  (no small arguments: marginal not measured)");
            } else {
                System.out.printf(" %16.0f %16.0f %8.2fx%n", m[2], m[3], (m[1] - m[3]) / (m[0] - m[2]));
            }
        }
    }
}
