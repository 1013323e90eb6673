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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Writes the {@link StartupArchive} of this JDK and dist.jar: runs short training programs on two
 * nodes with every JVM logging the classes it loads and writing its class list (which also names
 * the lambdas it made and the method-handle forms it resolved), keeps what belongs to the JDK and
 * to dist.jar, and has the JDK dump that into an archive ({@code -Xshare:dump}). The archive
 * appears at its place in one atomic move, so a JVM starting meanwhile sees the old one or the new
 * one.
 *
 * <p>Archived lambdas and method-handle forms matter beyond start-up time: a JVM that makes them
 * at run time spins hundreds of small classes with the JDK's internal bytecode writer, which then
 * grows hot enough to be compiled, and on a small machine that compilation delays the program's
 * own. Forms of bound method-handle species ({@code [SPECIES_RESOLVE]}) are left out: JDK 17
 * crashes loading such an archived class while a class-file load hook is on, as dist's agent has.
 */
final class StartupArchiveWriter {
    private static final long TRAINING_TIMEOUT_SECONDS = 300;
    /**
     * The pi sample, 2 threads and a short kernel: what a home and a worker load when they start and
     * place threads; the ray tracer, small: what a home loads when it keeps threads that reach JDK
     * objects at home.
     */
    private static final List<List<String>> TRAINING = List.of(
            List.of("samples.pi.Pi", "2", "2000000"),
            List.of("samples.raytrace.RayTracer", "2", "64", "48", "atomic"));
    private static final String LOADED_LOG_PREFIX = "loaded-";
    private static final String CLASS_LIST_PREFIX = "class-list-";

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
            for (int run = 0; run < TRAINING.size(); run++) {
                train(samples, work, run);
            }
            Set<String> classes = classesToArchive(work);
            Path list = work.resolve("classes.txt");
            Files.write(list, classListOf(classes, work));
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

    private void train(Path samples, Path work, int run) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java()));
        Path nativeAgent = distJar.resolveSibling("libdistjvmti.so");
        if (Files.isRegularFile(nativeAgent)) {
            command.add("-agentpath:" + nativeAgent);
        }
        command.addAll(List.of("-javaagent:" + distJar + "=nodes=2", "-cp", distJar + File.pathSeparator + samples));
        command.addAll(TRAINING.get(run));
        // The home's and the worker's alike: the worker inherits the environment. %p: each JVM its own file.
        String logging = "-Xlog:class+load=info:file=" + work.resolve(LOADED_LOG_PREFIX + run + "-%p.log") + ":none"
                + " -XX:DumpLoadedClassList=" + work.resolve(CLASS_LIST_PREFIX + run + "-%p.txt");
        run(command, work.resolve("training.log"), Map.of("JAVA_TOOL_OPTIONS", logging));
    }

    /** The classes the training's JVMs loaded from the JDK or from dist.jar, as the JDK's class list names them. */
    private Set<String> classesToArchive(Path work) throws IOException {
        String fromDistJar = " source: " + distJar.toUri().toURL(); // file:/..., as the JVM logs it
        Set<String> classes = new TreeSet<>();
        for (Path log : filesStartingWith(work, LOADED_LOG_PREFIX)) {
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
        if (classes.isEmpty()) {
            throw new IOException("the training run logged no class loading; its output: " + tail(work.resolve("training.log")));
        }
        return classes;
    }

    /**
     * The class list to dump: {@code classes}, then the lambdas whose makers are among them and the
     * method-handle forms that the training's class lists name ({@code @lambda-proxy} and
     * {@code @lambda-form-invoker [LF_RESOLVE]} lines), each once.
     */
    private static List<String> classListOf(Set<String> classes, Path work) throws IOException {
        Set<String> lines = new LinkedHashSet<>(classes);
        for (Path list : filesStartingWith(work, CLASS_LIST_PREFIX)) {
            for (String line : Files.readAllLines(list)) {
                String[] words = line.split(" ", 3);
                boolean archivedLambda = words[0].equals("@lambda-proxy") && words.length > 1 && classes.contains(words[1]);
                boolean resolvedForm = words[0].equals("@lambda-form-invoker") && words.length > 1
                        && words[1].equals("[LF_RESOLVE]");
                if (archivedLambda || resolvedForm) {
                    lines.add(line);
                }
            }
        }
        return List.copyOf(lines);
    }

    /** The training's files in {@code work} whose names start with {@code prefix}, in name order. */
    private static List<Path> filesStartingWith(Path work, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(work)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
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
