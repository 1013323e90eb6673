package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.TraceClassVisitor;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dist attach PID} against a running JVM (itapp.ProfiledWork): the profile sees the accesses
 * to the counter the threads write in turn as remote and those to each thread's own array as not; while the window is open the profiled
 * class runs rewritten, afterwards it has its own code again (read by an agent of the test's own);
 * a bad option is refused at the attaching side; through it all the target prints exactly what it
 * prints unprofiled and exits as it would. And the same profile of a whole run, at one node.
 */
class AttachProfileIT {
    private static final String COUNTER = "itapp.ProfiledWork$Counter";
    private static final String ROUND = "^round \\d+: counter 40000, sums 199990000 199990000$";

    @TempDir
    Path directory;

    @Test
    void profilesARunningJvmAndGivesItsClassesBack() throws Exception {
        List<String> javaOptions = List.of("-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading");
        Path probe = ClassBytesProbe.jar(directory);
        Path json = directory.resolve("profile.json");
        try (Jvm target = Jvm.plain(javaOptions, Jvm.TEST_CLASSES.toString(), "itapp.ProfiledWork")) {
            target.awaitLine("^round 2: ", Duration.ofSeconds(30));
            byte[] before = counterBytes(target, probe, "before");

            try (Jvm badOption = dist("attach", Long.toString(target.pid()), "--duration", "soon")) {
                assertEquals(2, badOption.awaitExit(Duration.ofSeconds(60)), badOption.output());
                assertTrue(badOption.stderr().stream().anyMatch(line -> line.contains("--duration takes a length")),
                        badOption.output());
            }
            try (Jvm asNode = dist("attach", Long.toString(target.pid()), "--nodes", "2")) {
                assertEquals(2, asNode.awaitExit(Duration.ofSeconds(60)), asNode.output());
                assertTrue(asNode.stderr().stream().anyMatch(line -> line.contains("a later step")), asNode.output());
            }

            try (Jvm attach = dist("attach", Long.toString(target.pid()), "--duration", "5s", "--every-access",
                    "--profile", json.toString())) {
                attach.awaitLine("^dist: profiling \\d+ classes of pid " + target.pid(), Duration.ofSeconds(60));
                byte[] during = counterBytes(target, probe, "during");
                assertNotEquals(classText(before), classText(during), "the probe did not see dist's rewrite of " + COUNTER);
                assertEquals(0, attach.awaitExit(Duration.ofSeconds(90)), attach.output());
                assertTrue(attach.stdout().get(0).startsWith("profile of pid " + target.pid()), attach.output());
                assertTrue(attach.stderr().contains("dist: wrote " + json), attach.output());
            }
            assertEquals(classText(before), classText(counterBytes(target, probe, "after")), COUNTER + " did not get its own code back");

            assertRemoteWhereThreadsTakeTurns(Files.readString(json));

            target.process().getOutputStream().close();
            assertEquals(0, target.awaitExit(Duration.ofSeconds(60)), target.output());
            List<String> stdout = target.stdout();
            assertEquals("ready", stdout.get(0), target.output());
            assertEquals("done", stdout.get(stdout.size() - 1), target.output());
            for (String line : stdout.subList(1, stdout.size() - 1)) {
                assertTrue(line.matches(ROUND), "unexpected output '" + line + "'\n" + target.output());
            }
            assertEquals(List.of(), target.stderr(), target.output());
        }
    }

    @Test
    void profilesARunAtOneNodeFromItsStartAndRefusesMoreNodes() throws Exception {
        Path json = directory.resolve("run-profile.json");
        try (Jvm home = Jvm.home("nodes=1,profile=" + json + ",profile-rate=0", Jvm.TEST_CLASSES.toString(), "itapp.ProfiledWork")) {
            home.awaitLine("^round 3: ", Duration.ofSeconds(60));
            home.process().getOutputStream().close();
            assertEquals(0, home.awaitExit(Duration.ofSeconds(60)), home.output());
            List<String> stdout = home.stdout();
            assertEquals("done", stdout.get(stdout.size() - 1), home.output());
            for (String line : stdout.subList(1, stdout.size() - 1)) {
                assertTrue(line.matches(ROUND), "unexpected output '" + line + "'\n" + home.output());
            }
            assertTrue(home.stderr().contains("[dist] profile written to " + json), home.output());
            assertTrue(home.stderr().stream().anyMatch(line -> line.matches("\\[dist\\]   1\\. .*")), home.output());
        }
        assertRemoteWhereThreadsTakeTurns(Files.readString(json));

        try (Jvm twoNodes = Jvm.home("nodes=2,profile=" + json, Jvm.TEST_CLASSES.toString(), "itapp.ProfiledWork")) {
            assertEquals(2, twoNodes.awaitExit(Duration.ofSeconds(60)), twoNodes.output());
            assertTrue(twoNodes.stderr().stream().anyMatch(line -> line.contains("profile works at nodes=1 only so far")),
                    twoNodes.output());
        }
    }

    /**
     * The what-if of a profiled run at one node names the threads dist would keep at the home on
     * more nodes (their lambda captured an ArrayList) and places them there.
     */
    @Test
    void aProfiledRunNamesTheThreadsDistWouldKeepHome() throws Exception {
        Path json = directory.resolve("kept-home.json");
        try (Jvm home = Jvm.home("nodes=1,profile=" + json + ",profile-rate=0", Jvm.TEST_CLASSES.toString(),
                "itapp.unsupported.CapturesJdkCollection")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(60)), home.output());
            assertEquals(List.of("[item-0, item-1, item-2, item-3]"), home.stdout(), home.output());
            assertTrue(home.stderr().stream().anyMatch(line -> line.startsWith("[dist] dist would keep 4 threads (collector-")
                    && line.contains(": instances of java.util.ArrayList cannot be shared between nodes")), home.output());
        }
        String profile = Files.readString(json);
        assertTrue(profile.contains("\"keptHome\": [{\"reason\": \"instances of java.util.ArrayList cannot be shared between"
                + " nodes: it is a JDK class (reached through a lambda of itapp.unsupported.CapturesJdkCollection, captured value 0)"),
                profile);
        assertTrue(profile.contains("\"threads\": 4, \"names\": [\"collector-0\", \"collector-1\", \"collector-2\","
                + " \"collector-3\"]}]"), profile);
        Matcher placed = Pattern.compile("\\{\"name\": \"collector-\\d\", \"fromMillis\": \\d+, \"toMillis\": \\d+,"
                + " \"nodes\": \\[(\\d), (\\d), (\\d)\\]\\}").matcher(profile);
        int collectors = 0;
        while (placed.find()) {
            collectors++;
            assertEquals("0 0 0", placed.group(1) + " " + placed.group(2) + " " + placed.group(3), placed.group());
        }
        assertEquals(4, collectors, "every collector took the list's monitor, a sampled access: " + profile);
    }

    /**
     * A class as ASM prints it: members, code, attributes, not the constant pool. JDK 25 keeps, after
     * a retransformation back, the constant pool entries the rewritten version added (HotSpot merges
     * constant pools on redefinition, for frames still running old code): the same class, other bytes.
     */
    private static String classText(byte[] classFile) {
        StringWriter text = new StringWriter();
        new ClassReader(classFile).accept(new TraceClassVisitor(new PrintWriter(text)), 0);
        return text.toString();
    }

    /** {@code java -jar dist.jar ARGS}, the CLI as ./dist runs it. */
    private static Jvm dist(String... args) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("-jar", Jvm.DIST_JAR.toString()));
        arguments.addAll(List.of(args));
        return Jvm.start(Map.of(), arguments);
    }

    private byte[] counterBytes(Jvm target, Path probe, String when) throws Exception {
        Path out = directory.resolve("counter-" + when + ".class");
        VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
        try {
            vm.loadAgent(probe.toString(), COUNTER + "=" + out);
        } finally {
            vm.detach();
        }
        return Files.readAllBytes(out);
    }

    /**
     * ProfiledWork's two threads enter the counter's {@code add} in turn, so that each enter finds
     * the other's write (remote); each writes an array no other thread writes (never remote).
     */
    private static void assertRemoteWhereThreadsTakeTurns(String profile) {
        long[] counterEnters = site(profile, "synchronized_method", COUNTER, "add");
        assertTrue(counterEnters[1] > 0, "the threads enter the counter's add in turn: " + profile);
        long[] ownWrites = site(profile, "array_write", "long[]", "lambda\\$round\\$\\d+");
        assertTrue(ownWrites[0] > 0, profile);
        assertEquals(0, ownWrites[1], "each thread writes its own array, which no other thread writes: " + profile);
    }

    /**
     * Samples and remote samples of the one site of this kind and target in a method matching
     * {@code method}; fails unless there is exactly one.
     */
    private static long[] site(String profile, String kind, String target, String method) {
        Matcher matcher = Pattern.compile("\\{\"kind\": \"" + Pattern.quote(kind) + "\", \"target\": \"" + Pattern.quote(target)
                + "\", \"class\": \"[^\"]*\", \"method\": \"" + method + "\"[^}]*\"samples\": (\\d+), \"remoteSamples\": (\\d+), \"remoteSamplesAt\"")
                .matcher(profile);
        assertTrue(matcher.find(), "no " + kind + " site of " + target + " in " + profile);
        long[] counts = {Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2))};
        assertFalse(matcher.find(), "more than one " + kind + " site of " + target + " in " + profile);
        return counts;
    }
}
