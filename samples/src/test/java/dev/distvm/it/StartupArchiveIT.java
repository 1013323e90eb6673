package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.common.StartupArchive;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up archive (class-data sharing): written by {@code dist archive} for this JDK, used by
 * a home started with it and by the workers that home starts; and the {@code dist} script's
 * class path, which puts dist.jar first for the archive and hides it from the program.
 */
class StartupArchiveIT {
    private static final Path SAMPLES = Path.of(System.getProperty("dist.samples"));
    private static final Path DIST = SAMPLES.getParent().getParent().resolve("dist");
    private static final List<String> PI = List.of("samples.pi.Pi", "2", "200000");
    private static final String FROM_THE_ARCHIVE = "dev.distvm.agent.Agent source: shared objects file";
    /** A lambda of dist's code taken from the archive, not made at run time (JDK 17 numbers them, JDK 25 does not). */
    private static final Pattern LAMBDA_FROM_THE_ARCHIVE =
            Pattern.compile("dev\\.distvm\\.coordinator\\.Membership\\$\\$Lambda(\\$\\d+)?/0x\\p{XDigit}+ source: shared objects file");

    @TempDir
    Path temp;

    @Test
    void theArchiveDistWritesIsWhatAHomeAndTheWorkersItStartsLoadDistFrom() throws Exception {
        // A build of its own: the archive goes beside the dist.jar it was written from.
        Path build = Files.createDirectories(temp.resolve("build"));
        Path distJar = Files.copy(Jvm.DIST_JAR, build.resolve("dist.jar"));
        Files.copy(Jvm.NATIVE, build.resolve("libdistjvmti.so"));
        Path samples = Files.copy(SAMPLES, build.resolve("samples.jar"));
        try (Jvm writer = Jvm.start(Map.of(), List.of("-jar", distJar.toString(), "archive"))) {
            assertEquals(0, writer.awaitExit(Duration.ofSeconds(300)), writer.output());
        }
        Path archive = StartupArchive.of(distJar);
        assertTrue(Files.isRegularFile(archive), "no archive at " + archive);
        List<String> archiveOptions = StartupArchive.jvmOptions(distJar);
        assertEquals(2, archiveOptions.size(), "the archive is not taken: " + archiveOptions);

        Path logs = Files.createDirectories(temp.resolve("logs"));
        List<String> expected = Jvm.plainStdout(SAMPLES.toString(), PI);
        List<String> arguments = new ArrayList<>(archiveOptions);
        arguments.addAll(List.of("-agentpath:" + build.resolve("libdistjvmti.so"),
                "-javaagent:" + distJar + "=nodes=2", "-cp", distJar + File.pathSeparator + samples));
        arguments.addAll(PI);
        // Each JVM, the worker too (it inherits the environment), logs where its classes came from.
        String logging = "-Xlog:class+load=info:file=" + logs.resolve("loaded-%p.log") + ":none";
        try (Jvm home = Jvm.start(Map.of("JAVA_TOOL_OPTIONS", logging), arguments)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(180)), home.output());
            assertEquals(expected, home.stdout(), home.output());
        }
        List<Path> loaded;
        try (Stream<Path> files = Files.list(logs)) {
            loaded = files.toList();
        }
        assertEquals(2, loaded.size(), "a log of the home and one of its worker: " + loaded);
        for (Path log : loaded) {
            List<String> lines = Files.readAllLines(log);
            assertTrue(lines.contains(FROM_THE_ARCHIVE), log + " shows dist loaded from dist.jar");
            assertTrue(lines.stream().anyMatch(line -> LAMBDA_FROM_THE_ARCHIVE.matcher(line).matches()),
                    log + " shows no lambda of dist's membership taken from the archive");
        }
    }

    @Test
    void theProgramSeesTheClassPathItWasGivenThoughDistPutsItsJarFirst() throws Exception {
        String testClasses = Jvm.TEST_CLASSES.toString();
        assertEquals(List.of(testClasses), runByTheDistScript(Map.of(), "-cp", testClasses, ClassPathPrinter.class.getName()));
        // No -cp: java takes CLASSPATH, and so does the script.
        assertEquals(List.of(testClasses),
                runByTheDistScript(Map.of("CLASSPATH", testClasses), ClassPathPrinter.class.getName()));
    }

    @Test
    void aProgramThatRecordsWithJfrRunsWithoutTheArchive() throws Exception {
        writeTheBuildsArchive();
        Path recording = temp.resolve("run.jfr");
        List<String> program = new ArrayList<>(List.of("-XX:StartFlightRecording=filename=" + recording,
                "-Xlog:jfr+startup=off", "-cp", SAMPLES.toString()));
        program.addAll(PI); // an application class: the crash came with the first class dist rewrote
        assertEquals(Jvm.plainStdout(SAMPLES.toString(), PI), runByTheDistScript(Map.of(), program.toArray(String[]::new)));
        assertTrue(Files.size(recording) > 0, "an empty recording at " + recording);
    }

    @Test
    void aRecordingAskedForInJavaToolOptionsRunsWithoutTheArchive() throws Exception {
        writeTheBuildsArchive();
        Path recording = temp.resolve("tool-options.jfr");
        List<String> program = new ArrayList<>(List.of("-cp", SAMPLES.toString()));
        program.addAll(PI);
        // Before the script looked at JAVA_TOOL_OPTIONS too, this run ended with status 139 and no output.
        Map<String, String> environment = Map.of("JAVA_TOOL_OPTIONS",
                "-XX:StartFlightRecording=filename=" + recording + " -Xlog:jfr+startup=off");
        assertEquals(Jvm.plainStdout(SAMPLES.toString(), PI), runByTheDistScript(environment, program.toArray(String[]::new)));
        assertTrue(Files.size(recording) > 0, "an empty recording at " + recording);
    }

    /** The archive of this build, as `./dist run` writes it outside tests: with it, JDK 17 crashed at start when a flight recording started. */
    private static void writeTheBuildsArchive() throws Exception {
        if (!StartupArchive.jvmOptions(Jvm.DIST_JAR).isEmpty()) {
            return;
        }
        try (Jvm writer = Jvm.start(Map.of(), List.of("-jar", Jvm.DIST_JAR.toString(), "archive"))) {
            assertEquals(0, writer.awaitExit(Duration.ofSeconds(300)), writer.output());
        }
        assertEquals(2, StartupArchive.jvmOptions(Jvm.DIST_JAR).size(), "the build's archive is not taken");
    }

    private static List<String> runByTheDistScript(Map<String, String> environment, String... program)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(DIST.toString(), "run", "--nodes", "1", "--"));
        command.addAll(List.of(program));
        Map<String, String> scriptEnvironment = new HashMap<>(environment);
        scriptEnvironment.put("DIST_NO_BUILD", "1");
        scriptEnvironment.put("JAVA_HOME", System.getProperty("java.home"));
        try (Jvm run = Jvm.command(scriptEnvironment, command)) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(120)), run.output());
            return run.stdout();
        }
    }
}
