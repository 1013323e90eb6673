package mpitest.compat;

import mpitest.Ranks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MPJ Express programs' API with ranks as threads of this JVM. */
class MpjExpressApiTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void mpjExpressAdditionsAndTheMpiJavaCallsTheyNeedWork(int ranks) throws Exception {
        Ranks.runThreads(ranks, MpjExpressApi.class);
    }
}
