package dev.distvm.perf;

import dev.distvm.transport.ClusterSecret;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * {@code ./dist perf cluster}: a program's speedup on emulated clusters of 1, 2, 4 and 8 nodes,
 * each node a host of its own (a network namespace with its own address on a bridge:
 * {@link EmulatedHosts}) with its own CPU quota ({@link CpuQuotas}), started with {@code ./dist}
 * commands as on real hosts ({@link ClusterRun}). It prints, per node count, the kernel time (the
 * program's own, by the convention of {@code samples.KernelTime}), the whole run's time, and the
 * speedup and efficiency of each against one such node; every run must print what a plain JVM
 * prints, or its row says it failed. It writes an SVG plot with JESSICA's published points.
 *
 * <p>The caveat it prints: the emulated network is as fast as loopback while the nodes are slowed
 * to a fraction of a CPU, so, measured in a node's own compute, the network is faster than the same
 * link would be between full-speed hosts; it measures the round trip to say by how much.
 */
public final class EmulatedCluster {
    private static final String USAGE = String.join("\n",
            "usage: ./dist perf cluster [--nodes 1,2,4,8] [--cpu 0.2] [--period-us 5000] [--repeats 1]",
            "                           [--encryption on|off|both] [--svg FILE] [--timeout-s 900]",
            "                           (--samples | -- [java options] (-cp APP Main | -jar app.jar) [args])",
            "Runs the program on emulated clusters of each node count: every node a network namespace of its own",
            "(its address on a bridge) with a CPU quota of --cpu CPUs per --period-us; a plain JVM's output first,",
            "which every run must print. --samples runs every SSI sample of build/samples.jar at its default size.",
            "Prints kernel times (the program's line 'kernel time: <ms> ms' on standard error, see samples.KernelTime),",
            "whole-run times, speedups and efficiencies against 1 node, and writes an SVG plot (default",
            "build/cluster-speedup.svg). --encryption off puts every node on host 0's loopback (each in its own",
            "quota), where links are in clear; on (the default) gives each node a host, where links are encrypted.",
            "Needs root, `ip netns` and the cgroup v1 cpu controller; without them it says which is missing.");
    private static final String PREFIX = "distpc";

    private EmulatedCluster() {}

    public static void main(String[] args) throws Exception {
        int dashes = Arrays.asList(args).indexOf("--");
        String[] ours = dashes < 0 ? args : Arrays.copyOfRange(args, 0, dashes);
        List<String> program = dashes < 0 ? List.of() : List.of(args).subList(dashes + 1, args.length);
        BenchmarkOptions options = BenchmarkOptions.parse(ours, USAGE, Set.of("--build", "--dist", "--nodes", "--cpu",
                "--period-us", "--repeats", "--encryption", "--svg", "--timeout-s"), Set.of("--samples"), false);
        Path build = Path.of(options.value("--build", "build"));
        List<Integer> nodeCounts = nodeCounts(options);
        double cpu = cpu(options);
        int repeats = options.count("--repeats", 1);
        List<Boolean> settings = switch (options.value("--encryption", "on")) {
            case "on" -> List.of(true);
            case "off" -> List.of(false);
            case "both" -> List.of(true, false);
            default -> {
                options.fail("--encryption is on, off or both");
                yield List.of();
            }
        };
        List<List<String>> programs = new ArrayList<>();
        if (options.flag("--samples")) {
            for (String main : samples(build.resolve("samples.jar"))) {
                programs.add(List.of("-cp", build.resolve("samples.jar").toAbsolutePath().toString(), main));
            }
        } else if (!program.isEmpty()) {
            programs.add(program);
        } else {
            options.fail("give the program after -- or --samples");
        }
        Path svg = Path.of(options.value("--svg", build.resolve("cluster-speedup.svg").toString()));
        Duration timeout = Duration.ofSeconds(options.count("--timeout-s", 900));
        int maxNodes = nodeCounts.stream().mapToInt(Integer::intValue).max().orElseThrow();

        EmulatedHosts hosts;
        CpuQuotas quotas;
        try {
            quotas = CpuQuotas.create(PREFIX, maxNodes, cpu, options.count("--period-us", 5_000));
            try {
                hosts = EmulatedHosts.create(PREFIX, maxNodes);
            } catch (IllegalStateException e) {
                quotas.close();
                throw e;
            }
        } catch (IllegalStateException e) {
            System.err.println("error: " + e.getMessage()); // what is missing: root, ip netns, the cpu controller
            System.exit(2);
            return;
        }
        Path scratch = Files.createTempDirectory("dist-perf-cluster");
        // Interrupted (Ctrl-C, kill), it stops the nodes it started and removes the hosts and quotas.
        Thread cleanUp = new Thread(() -> {
            for (ProcessHandle node : ProcessHandle.current().descendants().toList()) {
                node.destroyForcibly();
                try {
                    node.onExit().get(5, TimeUnit.SECONDS); // a group in use cannot be removed
                } catch (Exception e) {
                    // removed by the next run, as a leftover of a dead one
                }
            }
            quotas.close();
            hosts.close();
        }, "dist-perf-cluster-clean-up");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try (hosts; quotas) {
            printCaveat(build, hosts, cpu, maxNodes);
            ClusterRun cluster = new ClusterRun(Path.of(options.value("--dist", "dist")).toAbsolutePath(), hosts, quotas,
                    scratch, Map.of(ClusterSecret.ENV, ClusterSecret.random().value(),
                            "JAVA_HOME", System.getProperty("java.home"), "DIST_NO_BUILD", "1"));
            List<SpeedupPlot.Series> series = new ArrayList<>();
            for (List<String> measured : programs) {
                series.addAll(measure(cluster, measured, nodeCounts, settings, repeats, timeout));
            }
            SpeedupPlot.write(svg, String.format("kernel speedup over 1 node, nodes of %.2f CPU each (Java %s)", cpu,
                    Runtime.version()), maxNodes, series);
            System.out.println("plot: " + svg);
        } finally {
            try (var files = Files.list(scratch)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(scratch);
            Runtime.getRuntime().removeShutdownHook(cleanUp);
        }
    }

    private static List<SpeedupPlot.Series> measure(ClusterRun cluster, List<String> program, List<Integer> nodeCounts,
                                                    List<Boolean> settings, int repeats, Duration timeout)
            throws IOException, InterruptedException {
        String name = program.stream().filter(a -> !a.startsWith("-") && !a.contains("/")).findFirst().orElse(program.toString());
        List<String> expected = plainOutput(program);
        System.out.println();
        System.out.println(name + " " + String.join(" ", program.subList(program.indexOf(name) + 1, program.size())));
        System.out.printf("%-10s %5s %11s %10s %8s %6s %8s  %s%n", "links", "nodes", "kernel ms", "whole ms", "kernel",
                "eff", "whole", "nodes with threads");
        List<SpeedupPlot.Series> series = new ArrayList<>();
        for (boolean encrypted : settings) {
            TreeMap<Integer, Double> speedups = new TreeMap<>();
            double oneKernel = Double.NaN, oneWhole = Double.NaN;
            for (int nodes : nodeCounts) {
                List<Double> kernels = new ArrayList<>(), wholes = new ArrayList<>();
                int withThreads = 0;
                String failure = null;
                for (int r = 0; r < repeats && failure == null; r++) {
                    ClusterRun.Result result = cluster.run(nodes, encrypted, program, timeout);
                    failure = result.failure() != null ? result.failure()
                            : !result.stdout().equals(expected) ? "printed other than a plain JVM: " + result.stdout()
                            : result.kernelMillis().isEmpty() ? "printed no 'kernel time: <ms> ms' line on standard error"
                            : null;
                    kernels.add(result.kernelMillis().orElse(Double.NaN));
                    wholes.add(result.wholeMillis());
                    withThreads = result.nodesWithThreads();
                }
                String links = encrypted ? "encrypted" : "clear";
                if (failure != null) {
                    System.out.printf("%-10s %5d   FAILED: %s%n", links, nodes, failure);
                    continue;
                }
                double kernel = SampleRuns.median(kernels.stream().mapToDouble(Double::doubleValue).toArray());
                double whole = SampleRuns.median(wholes.stream().mapToDouble(Double::doubleValue).toArray());
                if (nodes == 1) {
                    oneKernel = kernel;
                    oneWhole = whole;
                }
                double speedup = oneKernel / kernel;
                speedups.put(nodes, speedup);
                System.out.printf("%-10s %5d %11.0f %10.0f %7.2fx %5.0f%% %7.2fx  %d%n", links, nodes, kernel, whole, speedup,
                        100 * speedup / nodes, oneWhole / whole, withThreads);
            }
            series.add(new SpeedupPlot.Series(name.substring(name.lastIndexOf('.') + 1), encrypted, speedups));
        }
        return series;
    }

    /** What the program prints on a plain JVM at full speed (which every run must print too). */
    private static List<String> plainOutput(List<String> program) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(program);
        Process plain = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> lines = new String(plain.getInputStream().readAllBytes()).lines().toList();
        if (!plain.waitFor(10, TimeUnit.MINUTES) || plain.exitValue() != 0) {
            throw new IllegalStateException("the program fails on a plain JVM: " + String.join(" ", command));
        }
        return lines;
    }

    /** The network's round trip between two hosts beside what a node computes, so that the speedups are read rightly. */
    private static void printCaveat(Path build, EmulatedHosts hosts, double cpu, int maxNodes)
            throws IOException, InterruptedException {
        System.out.printf("nodes of %.2f CPU each: a node computes at most %.2f as fast as a full core.%n", cpu, cpu);
        if (maxNodes < 2) {
            return;
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String probe = build.resolve("perf.jar").toAbsolutePath().toString();
        String at = hosts.address(1) + ":7100";
        Process server = new ProcessBuilder(hosts.on(1, List.of(java, "-cp", probe, RoundTripProbe.class.getName(), "--serve", at)))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            new String(server.getInputStream().readNBytes("ready".length()));
            Process ping = new ProcessBuilder(hosts.on(0, List.of(java, "-cp", probe, RoundTripProbe.class.getName(), "--ping", at,
                    "20000"))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String micros = new String(ping.getInputStream().readAllBytes()).strip();
            ping.waitFor();
            System.out.printf("caveat: a 64-byte TCP round trip between two emulated hosts takes %s us, as on loopback;"
                    + " in a node's own compute that is worth %.1f us of a full core, so relative to compute the network is"
                    + " %.0fx faster than the same link between full-speed hosts would be.%n",
                    micros, Double.parseDouble(micros) * cpu, 1 / cpu);
        } finally {
            server.destroyForcibly().waitFor();
        }
    }

    /** The SSI samples in the jar (every class of samples.* with a main, but the MPI ones, which run under mpirun). */
    private static List<String> samples(Path jar) throws IOException {
        List<String> mains = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile());
             URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                String entry = entries.nextElement().getName();
                if (entry.startsWith("samples/") && !entry.startsWith("samples/mpi/") && entry.endsWith(".class")
                        && !entry.contains("$")) {
                    String name = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
                    if (hasMain(loader, name)) {
                        mains.add(name);
                    }
                }
            }
        }
        mains.sort(null);
        return mains;
    }

    /** Whether the class declares {@code main}; it is loaded, not initialized. */
    private static boolean hasMain(ClassLoader loader, String name) {
        try {
            Class.forName(name, false, loader).getMethod("main", String[].class);
            return true;
        } catch (ReflectiveOperationException | LinkageError e) {
            return false;
        }
    }

    private static List<Integer> nodeCounts(BenchmarkOptions options) {
        List<Integer> counts = options.counts("--nodes", "1,2,4,8");
        if (counts.get(0) != 1 || counts.stream().anyMatch(n -> n > 64)) {
            options.fail("--nodes starts with 1 (speedups are against 1 node) and counts 1 to 64 nodes, not "
                    + counts);
        }
        return counts;
    }

    private static double cpu(BenchmarkOptions options) {
        String text = options.value("--cpu", "0.2");
        try {
            double cpu = Double.parseDouble(text);
            if (cpu > 0 && cpu <= 64) {
                return cpu;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        options.fail("--cpu is the CPUs of a node, such as 0.2, not '" + text + "'");
        return 0;
    }
}
