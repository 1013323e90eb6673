package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import mpitest.Ranks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** `dist mpirun` with ranks as separate JVMs (and, for comparison, as threads) on real sockets. */
class MpiRunIT {
    /** The mpi module's test programs (its test jar, or its test classes directory in a reactor build). */
    private static final String PROGRAMS = Ranks.classesOf(Ranks.class).toString();

    private static Jvm mpirun(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("-jar", Jvm.DIST_JAR.toString(), "mpirun"));
        command.addAll(List.of(args));
        return Jvm.start(Map.of(), command);
    }

    /** The self-checking programs that the unit tests run as threads, here with ranks as JVMs. */
    static Stream<Arguments> programs() {
        return Stream.of("p2p.PointToPoint", "p2p.LargeMessages", "environment.Environment", "collectives.DataMovement", "collectives.Reductions",
                        "collectives.Communicators", "collectives.Misuse", "topology.CartesianGrid",
                        "topology.CartesianSub", "topology.GraphTopology", "topology.InterCommunicator",
                        "topology.TopologyErrors", "compat.MpjExpressApi")
                .flatMap(program -> Stream.of(2, 4, 8).map(ranks -> Arguments.of(program, ranks)));
    }

    @ParameterizedTest(name = "{0} on {1} processes")
    @MethodSource("programs")
    void programPassesWithRanksAsProcesses(String program, int ranks) throws Exception {
        try (Jvm run = mpirun("-np", String.valueOf(ranks), "--", "-cp", PROGRAMS,
                "mpitest." + program)) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(180)), run.output());
        }
    }

    @Test
    void everyRankRunsAndPrefixesShowWhichSaidWhat() throws Exception {
        try (Jvm run = mpirun("-np", "3", "--prefix", "--", "-cp", PROGRAMS, "mpitest.p2p.Hello", "3")) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(120)), run.output());
            assertEquals(new TreeSet<>(List.of("[0] hello from rank 0 of 3", "[1] hello from rank 1 of 3",
                    "[2] hello from rank 2 of 3")), new TreeSet<>(run.stdout()));
        }
    }

    @Test
    void threadsModeRunsTheSameProgramInOneJvm() throws Exception {
        try (Jvm run = mpirun("-np", "4", "--threads", "--", "-cp", PROGRAMS, "mpitest.p2p.Hello", "4")) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(120)), run.output());
            assertEquals(4, run.stdout().size(), run.output());
        }
    }

    @Test
    void aFailingRankGivesItsExitCodeAndStopsTheOthers() throws Exception {
        try (Jvm run = mpirun("-np", "3", "--", "-cp", PROGRAMS, "mpitest.p2p.FailingRank")) {
            assertEquals(3, run.awaitExit(Duration.ofSeconds(120)), run.output());
            run.awaitLine("mpirun: rank 1 \\(pid \\d+\\) exited with 3; stopping the other ranks", Duration.ofSeconds(1));
        }
    }

    @Test
    void abortEndsTheJobWithItsCode() throws Exception {
        try (Jvm run = mpirun("-np", "3", "--", "-cp", PROGRAMS, "mpitest.environment.Aborting", "abort")) {
            assertEquals(5, run.awaitExit(Duration.ofSeconds(120)), run.output());
        }
    }

    @Test
    void anErrorUnderErrorsAreFatalEndsTheJobAndSaysWhy() throws Exception {
        try (Jvm run = mpirun("-np", "3", "--", "-cp", PROGRAMS, "mpitest.environment.Aborting")) {
            assertEquals(1, run.awaitExit(Duration.ofSeconds(120)), run.output());
            run.awaitLine("MPI error \\(ERRORS_ARE_FATAL\\): destination rank 4 is not in 0..2", Duration.ofSeconds(1));
        }
    }

    @Test
    void badUsageExplainsItself() throws Exception {
        try (Jvm run = mpirun("-np", "two", "--", "-cp", ".", "Main")) {
            assertEquals(2, run.awaitExit(Duration.ofSeconds(60)), run.output());
            run.awaitLine("-np needs a whole number, got 'two'", Duration.ofSeconds(1));
        }
        try (Jvm run = mpirun("--help")) {
            assertEquals(0, run.awaitExit(Duration.ofSeconds(60)), run.output());
            assertTrue(run.stdout().get(0).startsWith("usage: dist mpirun"), run.output());
        }
    }
}
