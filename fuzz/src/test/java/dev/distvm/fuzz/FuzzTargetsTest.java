package dev.distvm.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the decoders with the standalone Jazzer driver in a JVM of its own for
 * {@code dist.fuzz.seconds}: every target at once through {@link EveryDecoder}, or the one named by
 * {@code dist.fuzz.target}. The committed seeds ({@code src/test/resources/corpus/TARGET}, findings
 * that were fixed among them) run first, then new inputs. A finding fails the test with Jazzer's
 * report and the input that caused it. Inputs that reached new code are kept under
 * {@code target/fuzz/corpus}, so the next run goes on from where this one stopped.
 */
class FuzzTargetsTest {
    /** Starting a JVM, instrumenting the classes and replaying the seeds come on top of the fuzzing time. */
    private static final long STARTUP_ALLOWANCE_SECONDS = 180;

    private final int seconds = Integer.parseInt(System.getProperty("dist.fuzz.seconds", "45"));
    private final String only = System.getProperty("dist.fuzz.target", "");
    private final Path seeds = Path.of(System.getProperty("dist.fuzz.seeds"));
    private final Path work = Path.of(System.getProperty("dist.fuzz.work"));
    private final List<String> targets = FuzzTargets.all();

    @Test
    void noDecoderMishandlesAnInputWithinTheFuzzingTime() throws Exception {
        if (only.isEmpty()) {
            fuzz(EveryDecoder.class.getName(), everySeed());
        } else {
            String target = targets.stream().filter(t -> FuzzTargets.simpleName(t).equals(only)).findFirst()
                    .orElseThrow(() -> new AssertionError("no fuzz target named " + only + "; there are "
                            + targets.stream().map(FuzzTargets::simpleName).toList()));
            fuzz(target, seeds.resolve(only));
        }
    }

    /** Every target's seeds as inputs of {@link EveryDecoder}: each behind its target's index. */
    private Path everySeed() throws IOException {
        Path all = work.resolve("seeds").resolve(FuzzTargets.simpleName(EveryDecoder.class.getName()));
        if (Files.isDirectory(all)) {
            try (Stream<Path> old = Files.list(all)) {
                for (Path file : old.toList()) {
                    Files.delete(file);
                }
            }
        }
        Files.createDirectories(all);
        for (int i = 0; i < targets.size(); i++) {
            Path dir = seeds.resolve(FuzzTargets.simpleName(targets.get(i)));
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path seed : files.toList()) {
                    byte[] bytes = Files.readAllBytes(seed);
                    byte[] prefixed = new byte[bytes.length + 1];
                    prefixed[0] = (byte) i;
                    System.arraycopy(bytes, 0, prefixed, 1, bytes.length);
                    Files.write(all.resolve(i + "-" + seed.getFileName()), prefixed);
                }
            }
        }
        return all;
    }

    private void fuzz(String target, Path targetSeeds) throws Exception {
        String name = FuzzTargets.simpleName(target);
        Path corpus = Files.createDirectories(work.resolve("corpus").resolve(name));
        Path findings = Files.createDirectories(work.resolve("findings").resolve(name));
        Path log = work.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseSerialGC",
                // As dist's agent does in every node (exceptions and threads are rebuilt through Throwable's and Thread's fields).
                "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                "com.code_intelligence.jazzer.Jazzer",
                "--target_class=" + target,
                // dist's own code is what is fuzzed; instrumenting the JDK and the libraries costs startup time.
                "--instrumentation_includes=dev.distvm.**:mpi.**",
                "-max_total_time=" + seconds,
                "-timeout=30", // one input that runs this long is a hang
                "-rss_limit_mb=4096",
                "-artifact_prefix=" + findings + "/",
                "--reproducer_path=" + findings,
                corpus.toString())); // new inputs go to the first directory; the seeds are only read
        if (Files.isDirectory(targetSeeds)) {
            command.add(targetSeeds.toString());
        }
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread logger = keepLog(process, log);
        boolean ended;
        try {
            ended = process.waitFor(seconds + STARTUP_ALLOWANCE_SECONDS, TimeUnit.SECONDS);
        } finally {
            process.destroyForcibly();
            logger.join(10_000); // the log is complete before it is read
        }
        if (!ended) {
            throw new AssertionError(name + " still running " + (seconds + STARTUP_ALLOWANCE_SECONDS)
                    + " s after it started (a hang in Jazzer or in a target); its log: " + log + "\n" + tail(log));
        }
        assertTrue(process.exitValue() == 0, () -> finding(name, process.exitValue(), findings, log));
        System.out.printf("fuzzed %s for %d s (%d s with Jazzer's start); log: %s%n", name, seconds,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), log);
    }

    /**
     * Copies Jazzer's output to {@code log}, without the warnings dist logs for each input it
     * refuses: millions of them in a long run, and none says more than the input does.
     */
    private static Thread keepLog(Process process, Path log) {
        Thread logger = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!line.startsWith("[dist] warning: ")) {
                        out.write(line);
                        out.newLine();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "fuzz-log");
        logger.setDaemon(true);
        logger.start();
        return logger;
    }

    /** What a failed run found, and where its input is (for {@link EveryDecoder}, as its target's own input). */
    private String finding(String name, int exit, Path findings, Path log) {
        try {
            StringBuilder text = new StringBuilder(name + " found an input a decoder mishandles (exit " + exit + ")");
            Path crash = newestCrash(findings);
            if (crash != null && name.equals(FuzzTargets.simpleName(EveryDecoder.class.getName()))) {
                byte[] input = Files.readAllBytes(crash);
                String target = FuzzTargets.simpleName(targets.get(FuzzTargets.indexOf(input, targets.size())));
                Path own = Files.createDirectories(work.resolve("findings").resolve(target)).resolve(crash.getFileName());
                Files.write(own, java.util.Arrays.copyOfRange(input, 1, input.length));
                crash = own;
                text.append(" in ").append(target);
            }
            text.append("; the input is ").append(crash).append(": once fixed, add it to ")
                    .append(seeds).append("/TARGET. Jazzer said:\n").append(tail(log));
            return text.toString();
        } catch (IOException e) {
            return name + " failed (exit " + exit + "); see " + log + " (" + e + ")";
        }
    }

    private static Path newestCrash(Path findings) throws IOException {
        try (Stream<Path> files = Files.list(findings)) {
            return files.filter(f -> !f.getFileName().toString().endsWith(".java"))
                    .max(Comparator.comparing(f -> f.toFile().lastModified())).orElse(null);
        }
    }

    /** Jazzer's report: from the finding on, or the end of the log. */
    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        int from = Math.max(0, lines.size() - 60);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("== Java Exception") || lines.get(i).startsWith("==") && lines.get(i).contains("ERROR")) {
                from = i;
                break;
            }
        }
        return String.join("\n", lines.subList(from, Math.min(lines.size(), from + 60)));
    }
}
