package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM started by an integration test: its stdout and stderr are collected line by line, and
 * {@link #close()} kills it (and any worker pids it announced) so that no test leaves a process
 * behind, even when it fails.
 */
final class Jvm implements AutoCloseable {
    static final Path DIST_JAR = Path.of(System.getProperty("dist.jar"));
    static final Path NATIVE = Path.of(System.getProperty("dist.native"));
    static final Path TEST_CLASSES = Path.of(System.getProperty("dist.testClasses"));
    static final Pattern WORKER_PIDS = Pattern.compile("worker pid (\\d+)");

    private final Process process;
    private final List<String> stdout = new ArrayList<>();
    private final List<String> stderr = new ArrayList<>();
    private final List<Long> announcedWorkers = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    private Jvm(Process process) {
        this.process = process;
        pump(process.getInputStream(), stdout, "stdout");
        pump(process.getErrorStream(), stderr, "stderr");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts {@code java ARGS} with the given extra environment. */
    static Jvm start(Map<String, String> environment, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(arguments);
        return command(environment, command);
    }

    /**
     * Starts {@code command}, which ends in one JVM of the same pid (a script or wrapper that
     * {@code exec}s java, such as {@code ip netns exec NS ./dist ...}), with the given extra environment.
     */
    static Jvm command(Map<String, String> environment, List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("DIST_SECRET");
        builder.environment().putAll(environment);
        return new Jvm(builder.start());
    }

    /** A home JVM with the native agent and dist's Java agent with {@code agentOptions}. */
    static Jvm home(String agentOptions, String classPath, String mainClass, String... args) throws IOException {
        return home(agentOptions, List.of(), classPath, mainClass, args);
    }

    /** A home JVM as {@link #home(String, String, String, String...)}, with more java options. */
    static Jvm home(String agentOptions, List<String> javaOptions, String classPath, String mainClass, String... args)
            throws IOException {
        List<String> options = new ArrayList<>(List.of(
                "-agentpath:" + NATIVE, "-javaagent:" + DIST_JAR + "=" + agentOptions));
        options.addAll(javaOptions);
        return plain(options, classPath, mainClass, args);
    }

    /** {@code java OPTIONS -cp CLASSPATH MAIN ARGS}: with no dist options, what the program does on one plain JVM. */
    static Jvm plain(List<String> javaOptions, String classPath, String mainClass, String... args) throws IOException {
        List<String> arguments = new ArrayList<>(javaOptions);
        arguments.addAll(List.of("-cp", classPath, mainClass));
        arguments.addAll(List.of(args));
        return start(Map.of(), arguments);
    }

    /**
     * Runs {@code program} (of the test classes) with {@code javaOptions} on a plain JVM and on
     * {@code nodes} nodes, checks that both exit 0 and print the same, and returns the run report.
     */
    static String reportOfARunLikePlain(Path report, int nodes, List<String> javaOptions, String program)
            throws IOException, InterruptedException {
        List<String> expected;
        try (Jvm plain = plain(javaOptions, TEST_CLASSES.toString(), program)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            expected = plain.stdout();
        }
        try (Jvm home = home("nodes=" + nodes + ",report=" + report, javaOptions, TEST_CLASSES.toString(), program)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(120)), home.output());
            assertEquals(expected, home.stdout(), home.output());
        }
        return Files.readString(report);
    }

    /** What {@code java -cp CLASSPATH MAIN ARGS} prints on a plain JVM, which must exit 0 within a minute. */
    static List<String> plainStdout(String classPath, List<String> mainAndArgs) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("-cp", classPath));
        arguments.addAll(mainAndArgs);
        try (Jvm plain = start(Map.of(), arguments)) {
            if (plain.awaitExit(Duration.ofSeconds(60)) != 0) {
                throw new AssertionError("the plain JVM failed\n" + plain.output());
            }
            return plain.stdout();
        }
    }

    private void pump(InputStream stream, List<String> lines, String name) {
        Thread pump = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (this) {
                        lines.add(line);
                        Matcher m = WORKER_PIDS.matcher(line);
                        while (m.find()) {
                            announcedWorkers.add(Long.parseLong(m.group(1)));
                        }
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "jvm-" + name + "-" + process.pid());
        pump.setDaemon(true);
        pump.start();
        pumps.add(pump);
    }

    /**
     * Writes {@code text} (UTF-8) to the process's standard input and closes it, so that the
     * program then reads the end of its input. Text larger than the pipe's buffer (64 KiB on Linux)
     * blocks until the program has read the rest; if the process has ended this throws, and
     * {@link #close()} still stops it.
     */
    void feedStdin(String text) throws IOException {
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Writes one line to the process's standard input and leaves it open for more. */
    void tell(String line) throws IOException {
        OutputStream stdin = process.getOutputStream();
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    /** Waits for a line of stdout or stderr matching {@code regex}; fails with all output so far. */
    synchronized Matcher awaitLine(String regex, Duration timeout) throws InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        int seenOut = 0;
        int seenErr = 0;
        while (true) {
            for (; seenOut < stdout.size(); seenOut++) {
                Matcher m = pattern.matcher(stdout.get(seenOut));
                if (m.find()) {
                    return m;
                }
            }
            for (; seenErr < stderr.size(); seenErr++) {
                Matcher m = pattern.matcher(stderr.get(seenErr));
                if (m.find()) {
                    return m;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no line matching /" + regex + "/ within " + timeout + "\n" + output());
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        }
    }

    /** Waits for the process to end and returns its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("process " + pid() + " still running after " + timeout + "\n" + output());
        }
        for (Thread pump : pumps) {
            pump.join(2_000); // what the process wrote last
        }
        return process.exitValue();
    }

    synchronized List<String> stdout() {
        return List.copyOf(stdout);
    }

    synchronized List<String> stderr() {
        return List.copyOf(stderr);
    }

    synchronized String output() {
        return "--- stdout of " + pid() + " ---\n" + String.join("\n", stdout)
                + "\n--- stderr of " + pid() + " ---\n" + String.join("\n", stderr) + "\n";
    }

    synchronized List<Long> announcedWorkers() {
        return List.copyOf(announcedWorkers);
    }

    @Override
    public void close() {
        process.destroyForcibly();
        for (long worker : announcedWorkers()) {
            ProcessHandle.of(worker).ifPresent(ProcessHandle::destroyForcibly);
        }
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
