package mpi;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mpitest.Ranks;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the self-checking topology programs of {@code mpitest.topology} as jobs of 2, 4 and 8
 * ranks in threads mode; a program reports a wrong result by throwing, which fails the job.
 */
class TopologyProgramsTest {
    private static final List<String> PROGRAMS = List.of("CartesianGrid", "CartesianSub", "GraphTopology",
            "InterCommunicator", "TopologyErrors");

    static Stream<Arguments> jobs() {
        return PROGRAMS.stream().flatMap(program -> Stream.of(2, 4, 8).map(ranks -> Arguments.of(program, ranks)));
    }

    /** The timeout only keeps a deadlock from stalling the build; it is far above any run's duration. */
    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("jobs")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void programChecksOut(String program, int ranks) throws Exception {
        Ranks.runThreads(ranks, Class.forName("mpitest.topology." + program));
    }
}
