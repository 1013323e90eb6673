package dev.distvm.perf;

import dev.distvm.common.StartupArchive;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import perfapp.NoOpAgent;

/**
 * How long a program waits for dist before its {@code main} runs, against a plain JVM, in one run:
 * each configuration starts {@code perfapp.ReadyProbe}, which prints the wall clock as its main
 * begins; ready = that moment minus the moment the benchmark launched the command, whole = until
 * the command ended (dist's end: the run report, the workers' exit). Configurations take turns, so
 * a change in the machine's load falls on all of them. Medians of {@code --repeats} runs.
 * Configurations: a plain JVM; the floor of any agent (a no-op {@code -javaagent}, alone and with
 * dist's native agent); a bare {@code java -agentpath:... -javaagent:dist.jar} (what a launch
 * without the {@code dist} script gets: no start-up archive); {@code ./dist run --nodes N} for each
 * N (the start-up archive when ./dist build wrote it, local workers started at once). Then, for
 * each N of 2 or more, how soon threads placed on the N nodes begin ({@code perfapp.PlacementProbe}).
 *
 * <p>usage: StartupTimes [--build DIR] [--dist PATH] [--repeats N] [--nodes 1,2,4]
 */
public final class StartupTimes {
    private static final String USAGE = "usage: StartupTimes [--build DIR] [--dist PATH] [--repeats N] [--nodes 1,2,4]";
    private static final String PROBE = "perfapp.ReadyProbe";
    private static final String PLACEMENT_PROBE = "perfapp.PlacementProbe";
    private static final String PLAIN = "plain java";
    private static final double ONE_NODE_TARGET = 1.5;
    private static final long FOUR_NODES_TARGET_MILLIS = 500;

    private StartupTimes() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args, USAGE, Set.of("--build", "--dist", "--repeats", "--nodes"),
                Set.of(), false);
        Path build = Path.of(options.value("--build", "build")).toAbsolutePath();
        Path dist = Path.of(options.value("--dist", "./dist")).toAbsolutePath();
        int repeats = options.count("--repeats", 5);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String probe = build.resolve("perf-app.jar").toString();
        Path distJar = build.resolve("dist.jar");

        Map<String, List<String>> commands = new LinkedHashMap<>();
        commands.put(PLAIN, List.of(java, "-cp", probe, PROBE));
        String noOpAgent = noOpAgentJar().toString();
        commands.put("floor: a no-op -javaagent", List.of(java, "-javaagent:" + noOpAgent, "-cp", probe, PROBE));
        commands.put("floor: no-op agent + native agent", List.of(java, "-agentpath:" + build.resolve("libdistjvmti.so"),
                "-javaagent:" + noOpAgent, "-cp", probe, PROBE));
        commands.put("java -javaagent (bare, 1 node)", List.of(java, "-agentpath:" + build.resolve("libdistjvmti.so"),
                "-javaagent:" + distJar + "=nodes=1", "-cp", probe, PROBE));
        List<Integer> nodeCounts = options.counts("--nodes", "1,2,4");
        for (int n : nodeCounts) {
            commands.put("./dist run --nodes " + n, List.of(dist.toString(), "run", "--nodes", String.valueOf(n), "--",
                    "-cp", probe, PROBE));
        }
        System.out.printf("start-up archive for this JDK: %s%n", StartupArchive.jvmOptions(distJar).isEmpty()
                ? "absent (./dist build writes it); ./dist runs start without it"
                : "present (" + StartupArchive.of(distJar).getFileName() + ")");

        Map<String, double[][]> times = new LinkedHashMap<>();
        commands.keySet().forEach(name -> times.put(name, new double[2][repeats]));
        for (int round = 0; round < repeats; round++) {
            for (Map.Entry<String, List<String>> command : commands.entrySet()) {
                double[] readyAndWhole = time(command.getValue());
                times.get(command.getKey())[0][round] = readyAndWhole[0];
                times.get(command.getKey())[1][round] = readyAndWhole[1];
            }
            System.err.printf("round %d of %d done%n", round + 1, repeats);
        }

        double plainReady = SampleRuns.median(times.get(PLAIN)[0]);
        double plainWhole = SampleRuns.median(times.get(PLAIN)[1]);
        System.out.printf("%-34s %9s %8s %9s %8s%n", "medians of " + repeats, "ready ms", "x plain", "whole ms", "x plain");
        times.forEach((name, t) -> {
            double ready = SampleRuns.median(t[0]);
            double whole = SampleRuns.median(t[1]);
            System.out.printf("%-34s %9.0f %7.1fx %9.0f %7.1fx%n", name, ready, ready / plainReady, whole, whole / plainWhole);
        });
        placement(java, dist, probe, nodeCounts, repeats);
        if (nodeCounts.contains(1)) {
            double ratio = SampleRuns.median(times.get("./dist run --nodes 1")[0]) / plainReady;
            System.out.printf("target: one node ready within %.1fx of plain: %.1fx, %s%n", ONE_NODE_TARGET, ratio,
                    ratio <= ONE_NODE_TARGET ? "met" : "missed");
        }
        if (nodeCounts.contains(4)) {
            double ready = SampleRuns.median(times.get("./dist run --nodes 4")[0]);
            System.out.printf("target: 4 nodes ready within %d ms: %.0f ms, %s%n", FOUR_NODES_TARGET_MILLIS, ready,
                    ready <= FOUR_NODES_TARGET_MILLIS ? "met" : "missed");
        }
    }

    /**
     * How long after {@code start()} the last of N threads began ({@code perfapp.PlacementProbe}, N
     * threads at N nodes: one placed on each node), against the same N threads on a plain JVM, in
     * turns. What a program whose kernel starts its threads pays before any of its work runs.
     */
    private static void placement(String java, Path dist, String probe, List<Integer> nodeCounts, int repeats)
            throws IOException, InterruptedException {
        for (int n : nodeCounts) {
            if (n < 2) {
                continue;
            }
            List<String> plain = List.of(java, "-cp", probe, PLACEMENT_PROBE, String.valueOf(n));
            List<String> distributed = List.of(dist.toString(), "run", "--nodes", String.valueOf(n), "--", "-cp", probe,
                    PLACEMENT_PROBE, String.valueOf(n));
            double[] plainMicros = new double[repeats];
            double[] distMicros = new double[repeats];
            for (int round = 0; round < repeats; round++) {
                plainMicros[round] = printed(plain);
                distMicros[round] = printed(distributed);
            }
            double plainMedian = SampleRuns.median(plainMicros);
            double distMedian = SampleRuns.median(distMicros);
            System.out.printf("%d threads started, the last began after (medians of %d): plain JVM %.2f ms, ./dist run"
                    + " --nodes %d %.1f ms (%.0fx; one placed on each node)%n", n, repeats, plainMedian / 1000, n,
                    distMedian / 1000, distMedian / plainMedian);
        }
    }

    /** A jar whose agent is {@link perfapp.NoOpAgent}, made from this benchmark's own class file. */
    private static Path noOpAgentJar() throws IOException {
        Path jar = Files.createTempFile("dist-noop-agent", ".jar");
        jar.toFile().deleteOnExit();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", NoOpAgent.class.getName());
        String entry = NoOpAgent.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
             InputStream in = StartupTimes.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
        return jar;
    }

    /** Milliseconds from launch to the probe's main, and to the command's end. */
    private static double[] time(List<String> command) throws IOException, InterruptedException {
        long launchedMillis = System.currentTimeMillis();
        long launched = System.nanoTime();
        long printed = printed(command);
        return new double[] {printed - launchedMillis, (System.nanoTime() - launched) / 1e6};
    }

    /** Runs the command to its end and returns the number it printed. */
    private static long printed(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("DIST_NO_BUILD", "1"); // time the start, not a build
        Process process = builder.start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        int exit = process.waitFor();
        if (exit != 0 || !printed.matches("\\d+")) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + exit + " after printing '"
                    + printed + "' (run it by hand to see its errors)");
        }
        return Long.parseLong(printed);
    }
}
