package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.exit.Exits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What dist cannot share yet never gives a wrong answer: a thread that reaches such an object
 * when it starts stays at the home (and the program prints what it prints on one JVM), and one
 * that reaches it later on a worker, or calls a native method of an application class there,
 * stops the run with a message naming the class.
 */
class UnsupportedIT {
    private static final String ARRAY_LIST = "instances of java.util.ArrayList cannot be shared between nodes";
    private static final Path JNI_FIXTURE = Path.of(System.getProperty("dist.jniFixture"));

    @TempDir
    Path temp;

    @Test
    void aThreadThatCapturesAJdkCollectionStaysHome() throws Exception {
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(),
                "itapp.unsupported.CapturesJdkCollection")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("[item-0, item-1, item-2, item-3]"), home.stdout(), home.output());
            String json = Files.readString(report);
            assertTrue(json.contains("\"collector-1: kept home: " + ARRAY_LIST), json);
            // The refusal says how the thread reaches the list: its lambda captured it.
            assertTrue(json.contains(ARRAY_LIST + ": it is a JDK class (reached through a lambda of"
                    + " itapp.unsupported.CapturesJdkCollection, captured value 0), and dist shares only"), json);
        }
    }

    @Test
    void aThreadKeptHomeLeavesNoSharedObjectsAndNoTrackedWrites() throws Exception {
        Path report = temp.resolve("kept.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(),
                "itapp.unsupported.KeepsTasksHome")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("[item-0, item-1, item-2, item-3, item-4, item-5, item-6, item-7] 139999300000"), home.stdout(), home.output());
            String json = Files.readString(report);
            // The threads the placement sent to the worker stayed home; the others were placed there.
            assertTrue(Pattern.compile("\"keeper-\\d: kept home: " + Pattern.quote(ARRAY_LIST)).matcher(json).find(), json);
            assertFalse(Pattern.compile("\"keeper-\\d: node \\d+\"").matcher(json).find(), json);
            // Each of those tasks' Task and Tally were exported before its ArrayList was met.
            assertEquals(List.of(0L, 0L), RunReports.objectSpaceCounter(json, "objectsHomed"), json);
            assertEquals(List.of(0L, 0L), RunReports.objectSpaceCounter(json, "writesTracked"), json);
        }
    }

    @Test
    void aThreadWhoseCodeUsesAStaticHoldingAJdkObjectStaysHome() throws Exception {
        Path report = temp.resolve("statics.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(),
                "itapp.unsupported.StaticAccumulators")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("2501500 [logger-0 5050, logger-1 5050] 55 210"), home.stdout(), home.output());
            String json = Files.readString(report);
            // The first three starts go to the worker, which runs nothing yet; later ones may stay home by load.
            assertTrue(json.contains("\"summer-0: kept home: instances of java.util.concurrent.atomic.AtomicLong cannot be"
                    + " shared between nodes: it is a JDK class, and the thread's code uses the statics of"
                    + " itapp.unsupported.StaticAccumulators, whose field TOTAL holds one\""), json);
            // Declared Object: only its value says it cannot travel (the class is initialized).
            assertTrue(json.contains("\"logger-0: kept home: " + ARRAY_LIST + ": it is a JDK class, and the thread's code"
                    + " uses the statics of itapp.unsupported.StaticAccumulators$Registry, whose field log holds one\""), json);
            RunReports.assertPlacedOnAWorker(json, "free-0"); // any number: a worker may join before its home
            assertTrue(Pattern.compile("\"(summer|logger)-1: (kept home: instances of java.util.(concurrent.atomic.AtomicLong"
                    + "|ArrayList) cannot|node \\d+ \\(home\\))").matcher(json).results().count() == 2, json);
        }
    }

    @Test
    void aThreadWhoseCodeUsesAClassNotYetInitializedWhoseInitializerMakesAJdkListStaysHome() throws Exception {
        Path report = temp.resolve("lazy.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.unsupported.LazyRegistry")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("entries 2000 sum 1999000"), home.stdout(), home.output());
            assertTrue(json(report).contains("\"registrar-0: kept home: " + ARRAY_LIST + ": it is a JDK class, and the thread's"
                    + " code uses the statics of itapp.unsupported.LazyRegistry$Registry, whose class initializer"
                    + " stores one there\""), json(report));
        }
    }

    private static String json(Path report) throws java.io.IOException {
        return Files.readString(report);
    }

    @Test
    void aThreadWhoseCodeLocksAStringStaysHomeWhenTheClassFileShowsItElseTheRunStops() throws Exception {
        for (String through : List.of("field", "local")) {
            Path report = temp.resolve("locks-" + through + ".json");
            try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.unsupported.LocksValues",
                    through)) {
                assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
                assertEquals(List.of("80000"), home.stdout(), home.output());
                assertTrue(Files.readString(report).contains("\"counter-0: kept home: instances of java.lang.String cannot be"
                        + " shared between nodes: the thread's code locks one, and each node has its own"), Files.readString(report));
            }
        }
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.unsupported.LocksValues", "hidden")) {
            assertEquals(Exits.CANNOT_RUN_COHERENTLY, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of(), home.stdout(), home.output());
            assertTrue(home.output().contains("[dist] error: thread counter-") && home.output().contains(
                    " on a worker locked the string \"box\", which travels between nodes by value"), home.output());
        }
    }

    @Test
    void threadsWhoseCodeStoresJdkObjectsWhereOthersFindThemStayHome() throws Exception {
        String program = "itapp.unsupported.PublishesJdkObjects";
        List<String> expected = List.of("collector 0: sum 4800040, keys 97 from 0", "collector 1: sum 4800033, keys 97 from 0",
                "collector 2: sum 4800026, keys 97 from 0", "collector 3: sum 4800019, keys 97 from 0",
                "children [0, 1, 4, 9, 16, 25]");
        try (Jvm plain = Jvm.plain(List.of(), Jvm.TEST_CLASSES.toString(), program)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            assertEquals(expected, plain.stdout(), plain.output());
        }
        Path report = temp.resolve("publishes.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), program)) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(expected, home.stdout(), home.output());
            String json = Files.readString(report);
            assertTrue(Pattern.compile("\"collector-\\d: kept home: " + Pattern.quote(ARRAY_LIST + ": it is a JDK class, and"
                    + " the thread's code stores one into a field or an array element (in " + program + ".lambda$main$"))
                    .matcher(json).find(), json);
            assertTrue(Pattern.compile("\"spawner-\\d: kept home: " + Pattern.quote("instances of java.lang.Thread cannot be"
                    + " shared between nodes: it is a JDK class, and the thread's code stores one")).matcher(json).find(), json);
            // The spawners' children were placed on the worker, started by two home threads at once.
            assertTrue(Pattern.compile("\"Thread-\\d: node 2\"").matcher(json).find(), json);
        }
    }

    @Test
    void threadsWhoseCodeWritesThroughReflectionStayHome() throws Exception {
        Path report = temp.resolve("reflective.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, Jvm.TEST_CLASSES.toString(), "itapp.unsupported.WritesReflectively")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of("reflected 4000, through a handle 8000"), home.stdout(), home.output());
            String json = Files.readString(report);
            assertTrue(Pattern.compile("\"writer-\\d: kept home: " + Pattern.quote("instances of java.lang.reflect.Field cannot be"
                    + " shared between nodes: the thread's code writes through one (java.lang.reflect.Field.setInt, in"
                    + " itapp.unsupported.WritesReflectively.lambda$main$0), which dist does not see")).matcher(json).find(), json);
        }
    }

    @Test
    void aWorkerThreadThatReachesAJdkCollectionStopsTheRunNamingIt() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.unsupported.StoresJdkCollection")) {
            assertEquals(Exits.CANNOT_RUN_COHERENTLY, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of(), home.stdout(), home.output());
            assertTrue(home.output().contains("[dist] error: thread storer-") && home.output().contains(ARRAY_LIST),
                    home.output());
        }
    }

    /** A failed release leaves nothing for later ones to send: a thread's end would let main print without the lists. */
    @Test
    void aWorkerThreadThatEndsAfterStoringAJdkCollectionStopsTheRunBeforeItsJoinReturns() throws Exception {
        try (Jvm home = Jvm.home("nodes=2", Jvm.TEST_CLASSES.toString(), "itapp.unsupported.EndsAfterStoringJdkObject")) {
            assertEquals(Exits.CANNOT_RUN_COHERENTLY, home.awaitExit(Duration.ofSeconds(90)), home.output());
            assertEquals(List.of(), home.stdout(), home.output());
            assertTrue(home.output().contains("[dist] error: thread keeper-") && home.output().contains(ARRAY_LIST),
                    home.output());
        }
    }

    @Test
    void nativeMethodsRunAtTheHomeAndAWorkerThreadCallingOneStopsTheRunNamingIt() throws Exception {
        List<String> library = List.of("-Ditapp.jni=" + JNI_FIXTURE);
        String program = "itapp.unsupported.NativeCalls";
        List<String> plainOutput;
        try (Jvm plain = Jvm.plain(library, Jvm.TEST_CLASSES.toString(), program)) {
            assertEquals(0, plain.awaitExit(Duration.ofSeconds(60)), plain.output());
            plainOutput = plain.stdout();
        }
        assertEquals(List.of("mix 6, twice 42, missing java.lang.UnsatisfiedLinkError", "caller-0: twice 0",
                "caller-1: twice 2"), plainOutput);
        Path report = temp.resolve("natives.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, library, Jvm.TEST_CLASSES.toString(), program)) {
            assertEquals(Exits.CANNOT_RUN_COHERENTLY, home.awaitExit(Duration.ofSeconds(90)), home.output());
            // main ran at the home, through the wrappers, as on one JVM; caller-0, placed on the
            // worker since main is the home's load, stopped the run before caller-1 started.
            assertEquals(plainOutput.subList(0, 1), home.stdout(), home.output());
            String refusal = "thread caller-0 on a worker called native method " + program + ".twice";
            assertTrue(home.output().contains("[dist] error: " + refusal), home.output());
            String json = Files.readString(report);
            RunReports.assertPlacedOnAWorker(json, "caller-0");
            assertTrue(Pattern.compile("\"stops\": \\[\"node \\d+ ended the run with status 70: " + Pattern.quote(refusal))
                    .matcher(json).find(), json);
        }
    }
}
