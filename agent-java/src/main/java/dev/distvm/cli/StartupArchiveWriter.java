package dev.distvm.cli;

import dev.distvm.common.ChildJvm;
import dev.distvm.common.StartupArchive;
import dev.distvm.node.RunDirectory;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Writes the {@link StartupArchive} of this JDK and dist.jar: runs a short training program (the pi
 * sample on two nodes) with every JVM logging the classes it loads, keeps those of the JDK and of
 * dist.jar, and has the JDK dump them into an archive ({@code -Xshare:dump}). The archive appears
 * at its place in one atomic move, so a JVM starting meanwhile sees the old one or the new one.
 */
final class StartupArchiveWriter {
    private static final long TRAINING_TIMEOUT_SECONDS = 300;
    /** The pi sample, 2 threads, a short kernel: enough for a home and a worker to load what they start with. */
    private static final List<String> TRAINING = List.of("samples.pi.Pi", "2", "2000000");

    private final Path distJar;
    private final PrintStream progress;

    StartupArchiveWriter(Path distJar, PrintStream progress) {
        this.distJar = distJar;
        this.progress = progress;
    }

    /** Writes the archive and returns where it is. */
    Path write() throws IOException, InterruptedException {
        Path samples = distJar.resolveSibling("samples.jar");
        if (!Files.isRegularFile(samples)) {
            throw new IllegalArgumentException("the start-up archive is trained on the pi sample, and " + samples
                    + " is missing: build it with ./dist build");
        }
        Path archive = StartupArchive.of(distJar);
        Files.createDirectories(archive.getParent());
        Path work = Files.createTempDirectory(archive.getParent(), "writing-");
        long started = System.nanoTime();
        progress.println("dist: writing the start-up archive for this JDK and dist.jar (once per build and JDK; a few seconds)...");
        try {
            train(samples, work);
            Set<String> classes = classesToArchive(work);
            Path list = work.resolve("classes.txt");
            Files.write(list, classes);
            Path written = work.resolve("dist.jsa");
            // The module graph of a JVM with a Java agent, which the archive then holds as it is.
            run(List.of(ChildJvm.java(), "-Xshare:dump", "--add-modules=java.instrument", "-XX:SharedClassListFile=" + list,
                    "-XX:SharedArchiveFile=" + written, "-cp", distJar.toString()), work.resolve("dump.log"), Map.of());
            if (!Files.isRegularFile(written)) {
                throw new IOException("the JDK wrote no archive; its output: " + tail(work.resolve("dump.log")));
            }
            Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            progress.printf("dist: wrote %s (%d classes) in %.1f s%n", archive, classes.size(),
                    (System.nanoTime() - started) / 1e9);
            return archive;
        } finally {
            RunDirectory.delete(work);
        }
    }

    private void train(Path samples, Path work) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java()));
        Path nativeAgent = distJar.resolveSibling("libdistjvmti.so");
        if (Files.isRegularFile(nativeAgent)) {
            command.add("-agentpath:" + nativeAgent);
        }
        command.addAll(List.of("-javaagent:" + distJar + "=nodes=2", "-cp", distJar + File.pathSeparator + samples));
        command.addAll(TRAINING);
        // The home's and the worker's class loading alike: the worker inherits the environment.
        String logging = "-Xlog:class+load=info:file=" + work.resolve("loaded-%p.log") + ":none";
        run(command, work.resolve("training.log"), Map.of("JAVA_TOOL_OPTIONS", logging));
    }

    /** The classes the training's JVMs loaded from the JDK or from dist.jar, as the JDK's class list names them. */
    private Set<String> classesToArchive(Path work) throws IOException {
        String fromDistJar = " source: " + distJar.toUri().toURL(); // file:/..., as the JVM logs it
        Set<String> classes = new TreeSet<>();
        try (Stream<Path> logs = Files.list(work)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("loaded-")).toList()) {
                for (String line : Files.readAllLines(log)) {
                    int source = line.indexOf(" source: ");
                    if (source <= 0) {
                        continue;
                    }
                    String name = line.substring(0, source);
                    boolean archivable = line.startsWith(" source: jrt:/", source)
                            || line.startsWith(" source: shared objects file", source)
                            || line.startsWith(fromDistJar, source);
                    // Hidden classes (lambdas) have a '/' in their name and are made again at each start.
                    if (archivable && name.indexOf('/') < 0) {
                        classes.add(name.replace('.', '/'));
                    }
                }
            }
        }
        if (classes.isEmpty()) {
            throw new IOException("the training run logged no class loading; its output: " + tail(work.resolve("training.log")));
        }
        return classes;
    }

    private static void run(List<String> command, Path log, Map<String, String> environment)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(TRAINING_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IOException("`" + String.join(" ", command) + "` did not end within " + TRAINING_TIMEOUT_SECONDS
                    + " s; its output: " + tail(log));
        }
        if (process.exitValue() != 0) {
            throw new IOException("`" + String.join(" ", command) + "` exited with status " + process.exitValue()
                    + "; its output: " + tail(log));
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
