package dist.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What dist's rewriting costs a program that runs on one node: each sample under
 * {@code -javaagent:dist.jar=nodes=1} against the same sample on a plain JVM, in one run,
 * alternating the two so drift of the machine hits both. A run's wall time includes JVM start,
 * and the agent's start (embedded coordinator, endpoint, class transformation of the program) is a
 * fixed cost, so each mode's start is measured too (pi with one interval) and subtracted: the
 * printed kernel ratio is (dist - dist start) / (plain - plain start). Every dist run must print
 * exactly what the plain run printed, or the benchmark stops.
 *
 * <p>usage: InstrumentationOverhead [--repeats N] [--build DIR] [Main ...]
 */
public final class InstrumentationOverhead {
    private static final List<List<String>> SAMPLES = List.of(
            List.of("samples.pi.Pi"),
            List.of("samples.raytrace.RayTracer"),
            List.of("samples.sor.Sor"),
            List.of("samples.matmul.MatMul"),
            List.of("samples.bin.BoundedBuffer"),
            List.of("samples.tsp.Tsp"),
            List.of("samples.linkedlist.LinkedListBuild"));
    private static final List<String> STARTUP = List.of("samples.pi.Pi", "1", "1");

    private final Path build;

    private InstrumentationOverhead(Path build) {
        this.build = build;
    }

    public static void main(String[] args) throws Exception {
        int repeats = 5;
        Path build = Path.of("build");
        List<List<String>> samples = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--build" -> build = Path.of(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: InstrumentationOverhead [--repeats N] [--build DIR] [Main ...]\n"
                            + "Runs each sample (default: all seven) plain and with dist at --nodes 1, N times each.");
                    return;
                }
                default -> samples.add(List.of(args[i]));
            }
        }
        InstrumentationOverhead bench = new InstrumentationOverhead(build);
        double plainStart = bench.median(false, STARTUP, repeats, null);
        double distStart = bench.median(true, STARTUP, repeats, null);
        System.out.printf("JVM start (pi, 1 interval): plain %.0f ms, dist %.0f ms%n", plainStart, distStart);
        System.out.printf("%-36s %10s %10s %8s %12s%n", "sample", "plain ms", "dist ms", "ratio", "kernel ratio");
        for (List<String> sample : samples.isEmpty() ? SAMPLES : samples) {
            String expected = bench.output(false, sample);
            double plain = bench.median(false, sample, repeats, expected);
            double dist = bench.median(true, sample, repeats, expected);
            System.out.printf("%-36s %10.0f %10.0f %7.2fx %11.2fx%n", sample.get(0), plain, dist, dist / plain,
                    (dist - distStart) / (plain - plainStart));
        }
    }

    private double median(boolean withDist, List<String> sample, int repeats, String expected)
            throws IOException, InterruptedException {
        double[] millis = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            long start = System.nanoTime();
            String printed = output(withDist, sample);
            millis[i] = (System.nanoTime() - start) / 1e6;
            if (expected != null && !printed.equals(expected)) {
                throw new IllegalStateException(sample.get(0) + (withDist ? " with dist" : "") + " printed\n" + printed
                        + "where the plain JVM printed\n" + expected);
            }
        }
        Arrays.sort(millis);
        return millis[repeats / 2];
    }

    private String output(boolean withDist, List<String> sample) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (withDist) {
            command.add("-agentpath:" + build.resolve("libdistjvmti.so").toAbsolutePath());
            command.add("-javaagent:" + build.resolve("dist.jar").toAbsolutePath() + "=nodes=1");
        }
        command.add("-cp");
        command.add(build.resolve("samples.jar").toString());
        command.addAll(sample);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
            }
            return printed;
        } finally {
            process.destroyForcibly();
        }
    }
}
