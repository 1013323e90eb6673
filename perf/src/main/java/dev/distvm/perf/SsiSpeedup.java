package dev.distvm.perf;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Speedup of the pi, ray tracer and SOR samples (default sizes) on 2 nodes over 1 node, in one run
 * (and of the ray tracer in its atomic mode, whose threads stay home, where it must be 1):
 * medians of whole-run wall times, the same with each side's start (pi with one interval on as
 * many nodes: JVMs, coordinator, workers joining) subtracted, which is the speedup of the work, and
 * the speedup of the kernel times the programs print.
 * Every run must print what the plain JVM prints. This machine has 2 cores, which one node's threads
 * already use, so {@code --cpu-per-node} emulates nodes of one CPU each (taskset: the home on CPU 0,
 * worker k on CPU k): that is the speedup a cluster of such nodes would show.
 *
 * <p>usage: SsiSpeedup [--build DIR] [--repeats N] [--nodes N] [--cpu-per-node]
 */
public final class SsiSpeedup {
    private static final List<List<String>> SAMPLES = List.of(
            List.of("samples.pi.Pi", "4", "400000000"), List.of("samples.raytrace.RayTracer"), List.of("samples.sor.Sor"),
            // Its tasks reach an AtomicInteger, so its threads stay home: 2 nodes must cost what 1 does.
            List.of("samples.raytrace.RayTracer", "4", "1600", "1200", "atomic"));
    private static final List<String> STARTUP = List.of("samples.pi.Pi", "2", "2");

    private SsiSpeedup() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args,
                "usage: SsiSpeedup [--build DIR] [--repeats N] [--nodes N] [--cpu-per-node]",
                Set.of("--build", "--repeats", "--nodes"), Set.of("--cpu-per-node"), false);
        Path build = Path.of(options.value("--build", "build"));
        int repeats = options.count("--repeats", 3);
        int nodes = options.count("--nodes", 2);
        boolean cpuPerNode = options.flag("--cpu-per-node");
        SampleRuns runs = new SampleRuns(build, cpuPerNode);
        double startOne = runs.medianMillis(1, "samples.jar", STARTUP, repeats, null);
        double startMany = runs.medianMillis(nodes, "samples.jar", STARTUP, repeats, null);
        System.out.printf("start (pi, 2 intervals): 1 node %.0f ms, %d nodes %.0f ms%n", startOne, nodes, startMany);
        System.out.printf("%-35s %10s %10s %9s %14s %16s%n", "sample", "1 node ms", nodes + " nodes ms", "speedup",
                "work speedup", "kernel speedup");
        for (List<String> sample : SAMPLES) {
            String expected = runs.output(SampleRuns.PLAIN, "samples.jar", sample);
            SampleRuns.Times one = runs.medianTimes(1, "samples.jar", sample, repeats, expected);
            SampleRuns.Times many = runs.medianTimes(nodes, "samples.jar", sample, repeats, expected);
            String name = sample.get(0) + (sample.size() > 4 ? " " + sample.get(4) : "");
            System.out.printf("%-35s %10.0f %10.0f %8.2fx %13.2fx %15.2fx%n", name, one.wholeMillis(), many.wholeMillis(),
                    one.wholeMillis() / many.wholeMillis(),
                    (one.wholeMillis() - startOne) / (many.wholeMillis() - startMany),
                    one.kernelMillis() / many.kernelMillis());
        }
    }
}
