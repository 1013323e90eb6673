package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dist attach PID} against a running JVM (itapp.ProfiledWork): the profile sees the shared
 * counter as shared and each thread's own array as not; while the window is open the profiled
 * class runs rewritten, afterwards it has its own bytes again (read by an agent of the test's own);
 * a bad option is refused at the attaching side; through it all the target prints exactly what it
 * prints unprofiled and exits as it would.
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

            try (Jvm attach = dist("attach", Long.toString(target.pid()), "--duration", "5s", "--sample", "1",
                    "--profile", json.toString())) {
                attach.awaitLine("^dist: profiling \\d+ classes of pid " + target.pid(), Duration.ofSeconds(60));
                byte[] during = counterBytes(target, probe, "during");
                assertFalse(Arrays.equals(before, during), "the probe did not see dist's rewrite of " + COUNTER);
                assertEquals(0, attach.awaitExit(Duration.ofSeconds(90)), attach.output());
                assertTrue(attach.stdout().get(0).startsWith("dist profile of pid " + target.pid()), attach.output());
                assertTrue(attach.stderr().contains("dist: wrote " + json), attach.output());
            }
            assertArrayEquals(before, counterBytes(target, probe, "after"), COUNTER + " did not get its own bytes back");

            String profile = Files.readString(json);
            long[] counterWrites = site(profile, "field_write", COUNTER + ".count");
            assertTrue(counterWrites[0] > 0 && counterWrites[1] > 0, "both threads write the counter: " + profile);
            long[] ownWrites = site(profile, "array_write", "long[]");
            assertTrue(ownWrites[0] > 0, profile);
            assertEquals(0, ownWrites[1], "each thread writes its own array, read by main only after the join: " + profile);

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

    /** Samples and shared samples of the one site of this kind and target; fails unless there is exactly one. */
    private static long[] site(String profile, String kind, String target) {
        Matcher matcher = Pattern.compile("\\{\"kind\": \"" + Pattern.quote(kind) + "\", \"target\": \"" + Pattern.quote(target)
                + "\"[^}]*\"samples\": (\\d+), \"sharedSamples\": (\\d+)\\}").matcher(profile);
        assertTrue(matcher.find(), "no " + kind + " site of " + target + " in " + profile);
        long[] counts = {Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2))};
        assertFalse(matcher.find(), "more than one " + kind + " site of " + target + " in " + profile);
        return counts;
    }
}
