package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every SSI sample, unmodified, on 2 and 4 nodes prints byte for byte what it prints on a plain JVM,
 * with its threads spread over every node where the sample's threads are long-lived workers. Sizes
 * are smaller than the samples' defaults to keep the suite short; samples/check-ssi.sh runs the
 * defaults five times each (the acceptance, recorded in perf/RESULTS.md).
 */
class SamplesIT {
    private static final Path SAMPLES = Path.of(System.getProperty("dist.samples"));

    @TempDir
    Path temp;

    static List<Object[]> runs() {
        List<List<String>> spreading = List.of(
                List.of("samples.pi.Pi", "4", "2000000"),
                List.of("samples.raytrace.RayTracer", "4", "160", "120"),
                List.of("samples.sor.Sor", "4", "64", "20"),
                List.of("samples.matmul.MatMul", "4", "120"),
                List.of("samples.bin.BoundedBuffer", "4", "2000", "8"),
                List.of("samples.tsp.Tsp", "4", "9"),
                List.of("samples.linkedlist.LinkedListBuild", "4", "4000"),
                List.of("samples.phases.TwoPhase", "4", "300000"),
                List.of("samples.barrier.TournamentBarrier", "4", "200", "300"),
                List.of("samples.sor.PipelinedSor", "4", "64", "20"),
                List.of("samples.lu.LuFact", "4", "60"),
                List.of("samples.md.MolDyn", "4", "3", "10"),
                List.of("samples.sync.SyncMethods", "4", "2000"),
                List.of("samples.sync.SyncBlocks", "4", "2000"),
                List.of("samples.mainshare.MainShare", "4", "2000000"),
                List.of("samples.spmv.SparseMatVec", "4", "20000", "10", "20"),
                List.of("samples.series.FourierSeries", "4", "400", "400"),
                List.of("samples.crypt.Crypt", "4", "2000000"),
                List.of("samples.montecarlo.MonteCarlo", "4", "2000", "500"));
        // Where a thread that lives for microseconds, or one whose end runs an uncaught-exception
        // handler, is best run is the placement policy's choice (keeping it home is correct); what
        // these programs print must not depend on it, so only their output is checked.
        List<List<String>> anywhere = List.of(
                List.of("samples.forkjoin.ShortThreads", "4", "2000"),
                List.of("samples.handlers.UncaughtHandlers", "10"));
        List<Object[]> runs = new ArrayList<>();
        for (int nodes : new int[] {2, 4}) {
            for (List<String> sample : spreading) {
                runs.add(new Object[] {sample, nodes, true});
            }
            for (List<String> sample : anywhere) {
                runs.add(new Object[] {sample, nodes, false});
            }
        }
        return runs;
    }

    @ParameterizedTest(name = "{0} on {1} nodes")
    @MethodSource("runs")
    void printsWhatAPlainJvmPrints(List<String> sample, int nodes, boolean spreads) throws Exception {
        String report = runLikeAPlainJvm(sample, nodes);
        if (spreads) {
            RunReports.assertThreadsRanOnEveryNode(report, nodes);
        }
    }

    /**
     * Main starts three threads and computes the fourth share itself: placement counts main as the
     * home's load, so each node runs the same number of application threads (2 and 2 on 2 nodes,
     * one each on 4), and the program prints what a plain JVM prints.
     */
    @ParameterizedTest(name = "on {0} nodes")
    @ValueSource(ints = {2, 4})
    void mainComputingAShareGetsTheSameLoadAsEveryNode(int nodes) throws Exception {
        String report = runLikeAPlainJvm(List.of("samples.mainshare.MainShare", "3", "8000000"), nodes);
        RunReports.assertApplicationThreadsPerNode(report, nodes, 4 / nodes);
    }

    /**
     * 500 threads, all started before main joins any, each doing 20 increments of one counter
     * under its monitor (a block, a synchronized method, a static synchronized method): on 4 nodes,
     * with threads on every node contending for the home's monitor, the count is 10,000. The
     * program checks the count itself and prints it; the output must be the plain JVM's.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"block", "method", "static"})
    void fiveHundredThreadsIncrementingUnderOneMonitorCountRightOnFourNodes(String shape) throws Exception {
        String report = runLikeAPlainJvm(List.of("samples.crowd.CrowdedCounter", "500", "20", shape), 4);
        RunReports.assertThreadsRanOnEveryNode(report, 4);
    }

    /** Runs {@code sample} on a plain JVM and on {@code nodes} nodes, checks the outputs are the same, returns the run report. */
    private String runLikeAPlainJvm(List<String> sample, int nodes) throws Exception {
        List<String> expected = Jvm.plainStdout(SAMPLES.toString(), sample);
        Path report = temp.resolve("run.json");
        try (Jvm home = Jvm.home("nodes=" + nodes + ",report=" + report, SAMPLES.toString(), sample.get(0),
                sample.subList(1, sample.size()).toArray(String[]::new))) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(180)), home.output());
            assertEquals(expected, home.stdout(), home.output());
        }
        return Files.readString(report);
    }
}
