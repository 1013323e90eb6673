package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrays large enough to travel on demand, in the shapes real programs use them (itapp.OnDemandShapes):
 * on 2 and 3 nodes the program prints what a plain JVM prints, its threads run on every node, and
 * the workers fetched chunks of its int and double arrays (they did not travel whole).
 */
class OnDemandArraysIT {
    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3})
    void largeArraysTravelOnDemandAndThePrintedSumsAreAPlainJvms(int nodes) throws Exception {
        String json = Jvm.reportOfARunLikePlain(temp.resolve("run.json"), nodes, List.of(), "itapp.OnDemandShapes");
        RunReports.assertThreadsRanOnEveryNode(json, nodes);
        assertTrue(RunReports.onDemandFetches(json, "int[]") > 0, json);
        assertTrue(RunReports.onDemandFetches(json, "double[]") > 0, json);
    }
}
