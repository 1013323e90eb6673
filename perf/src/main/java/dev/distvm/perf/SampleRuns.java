package dev.distvm.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a program as its own JVM, plain or under dist with a number of nodes, and times whole runs
 * (and takes the kernel time the program prints, by the convention of {@code samples.KernelTime}).
 * The benchmarks that compare dist with a plain JVM share it, so both sides start the same way.
 */
final class SampleRuns {
    /** A run on a plain JVM, without dist. */
    static final int PLAIN = 0;

    private static final java.util.regex.Pattern WORKER = java.util.regex.Pattern.compile("worker pid (\\d+)");

    private final Path build;
    private final boolean cpuPerNode;
    /** The kernel time the last run printed on standard error; NaN when it printed none. */
    private volatile double lastKernelMillis = Double.NaN;

    /** Medians of a program's runs: whole runs, and the kernel times it printed (NaN if none). */
    record Times(double wholeMillis, double kernelMillis) {}

    SampleRuns(Path build) {
        this(build, false);
    }

    /**
     * @param cpuPerNode emulate one CPU per node: the home JVM is pinned to CPU 0 and the k-th worker
     *                   to CPU k (with {@code taskset}), so N nodes have N CPUs where one node has one
     */
    SampleRuns(Path build, boolean cpuPerNode) {
        this.build = build;
        this.cpuPerNode = cpuPerNode;
    }

    /** What the program printed on stdout; fails when it exits with an error. {@code jar} may name several, ':'-separated. */
    String output(int nodes, String jar, List<String> program) throws IOException, InterruptedException {
        return output(nodes, "", jar, program);
    }

    /** As {@link #output(int, String, List)}, with more agent options ({@code ",report=FILE"}, say) after the node count. */
    String output(int nodes, String moreAgentOptions, String jar, List<String> program) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        if (cpuPerNode) {
            command.addAll(List.of("taskset", "-c", "0"));
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (nodes != PLAIN) {
            command.add("-agentpath:" + build.resolve("libdistjvmti.so").toAbsolutePath());
            command.add("-javaagent:" + build.resolve("dist.jar").toAbsolutePath() + "=nodes=" + nodes + moreAgentOptions);
        }
        command.add("-cp");
        command.add(classPath(jar));
        command.addAll(program);
        lastKernelMillis = Double.NaN;
        Process process = new ProcessBuilder(command).start();
        Thread errors = new Thread(() -> pinWorkersAndEcho(process), "stderr");
        errors.start();
        try {
            String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            errors.join();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
            }
            return printed;
        } finally {
            process.destroyForcibly();
        }
    }

    /** {@code jars}: names of jars in the build directory, separated by ':'. */
    private String classPath(String jars) {
        List<String> paths = new ArrayList<>();
        for (String jar : jars.split(":")) {
            paths.add(build.resolve(jar).toString());
        }
        return String.join(java.io.File.pathSeparator, paths);
    }

    /** Copies the program's stderr to ours; with one CPU per node, pins each worker as it is announced. */
    private void pinWorkersAndEcho(Process process) {
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(process.getErrorStream()))) {
            String line;
            while ((line = lines.readLine()) != null) {
                System.err.println(line);
                java.util.regex.Matcher kernel = ClusterRun.KERNEL_TIME.matcher(line);
                if (kernel.matches()) {
                    lastKernelMillis = Double.parseDouble(kernel.group(1));
                }
                java.util.regex.Matcher worker = WORKER.matcher(line);
                for (int cpu = 1; cpuPerNode && worker.find(); cpu++) {
                    new ProcessBuilder("taskset", "-a", "-p", "-c", String.valueOf(cpu), worker.group(1))
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
                }
            }
        } catch (IOException e) {
            System.err.println("stderr of the benchmarked program: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The median wall time in milliseconds of {@code repeats} runs; each must print {@code expected}
     * (when given), or the benchmark stops: a fast wrong answer is not a result.
     */
    double medianMillis(int nodes, String jar, List<String> program, int repeats, String expected)
            throws IOException, InterruptedException {
        return medianTimes(nodes, jar, program, repeats, expected).wholeMillis();
    }

    /** As {@link #medianMillis}, with the median of the kernel times the runs printed. */
    Times medianTimes(int nodes, String jar, List<String> program, int repeats, String expected)
            throws IOException, InterruptedException {
        double[] whole = new double[repeats];
        double[] kernel = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            whole[i] = millis(nodes, jar, program, expected);
            kernel[i] = lastKernelMillis;
        }
        return new Times(median(whole), median(kernel));
    }

    /** The wall time in milliseconds of one run, which must print {@code expected} (when given). */
    double millis(int nodes, String jar, List<String> program, String expected) throws IOException, InterruptedException {
        long start = System.nanoTime();
        String printed = output(nodes, jar, program);
        double millis = (System.nanoTime() - start) / 1e6;
        if (expected != null && !printed.equals(expected)) {
            throw new IllegalStateException(program.get(0) + " on " + nodes + " node(s) printed\n" + printed
                    + "where the plain JVM printed\n" + expected);
        }
        return millis;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
