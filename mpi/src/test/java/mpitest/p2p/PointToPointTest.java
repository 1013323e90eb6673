package mpitest.p2p;

import mpitest.Ranks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Point-to-point semantics with ranks as threads of this JVM (shared-memory device). */
class PointToPointTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4, 8})
    void everyModeStatusWildcardOrderingProbeCancelAndErrorBehavesAsMpiSays(int ranks) throws Exception {
        Ranks.runThreads(ranks, PointToPoint.class);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void largeMessagesArriveWholeInEveryTypeAndCase(int ranks) throws Exception {
        Ranks.runThreads(ranks, LargeMessages.class);
    }
}
