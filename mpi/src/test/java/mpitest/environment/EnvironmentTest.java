package mpitest.environment;

import mpitest.Ranks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Environment, groups, attributes, error handlers and packing, with ranks as threads. */
class EnvironmentTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4, 8})
    void environmentGroupsAttributesAndPackingBehaveAsMpiSays(int ranks) throws Exception {
        Ranks.runThreads(ranks, Environment.class);
    }
}
