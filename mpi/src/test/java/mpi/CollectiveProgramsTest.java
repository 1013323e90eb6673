package mpi;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import mpitest.Ranks;
import mpitest.collectives.Communicators;
import mpitest.collectives.DataMovement;
import mpitest.collectives.Misuse;
import mpitest.collectives.Reductions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the self-checking collective programs of {@code mpitest.collectives} in threads mode with
 * powers of two (2, 4, 8) and other sizes (1, 3, 5, 6), which take the algorithms' fix-up paths.
 * A program throws on a wrong result; the job then exits with 1 and its report is the failure message.
 */
class CollectiveProgramsTest {
    private static final int[] SIZES = {1, 2, 3, 4, 5, 6, 8};

    static Stream<Arguments> jobs() {
        return Stream.of(DataMovement.class, Reductions.class, Communicators.class, Misuse.class)
                .flatMap(program -> IntStream.of(SIZES).mapToObj(ranks -> Arguments.of(program.getSimpleName(), program, ranks)));
    }

    @ParameterizedTest(name = "{0} with {2} ranks")
    @MethodSource("jobs")
    @Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang is a failure, not a stuck build
    void programSucceeds(String name, Class<?> program, int ranks) throws Exception {
        Ranks.runThreads(ranks, program);
    }
}
