package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs each sample's main in this JVM with a small problem size and 1 or 3 threads and compares its
 * stdout with the single-JVM truth. The expected strings were obtained by running the samples
 * (java -cp build/samples.jar samples.X.Main threads size...) on one plain JDK 17 JVM with 1, 2, 3
 * and 4 threads, three times each, and checking the outputs were identical; the TSP lengths were
 * also checked against an independent Held-Karp dynamic program. Distributed runs of the same
 * commands must print exactly these strings. The samples from TwoPhase to MainShare below were
 * obtained the same way, and each also checks its own result (it throws when the result is wrong).
 */
class SamplesDeterminismTest {

    interface Main {
        void run(String[] args) throws Exception;
    }

    private static synchronized String run(Main main, String... args) throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            main.run(args);
        } finally {
            System.out.flush();
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void rayTracer(String threads) throws Exception {
        assertEquals("image 160x120 checksum 8f27f035eecb4915\n",
                run(samples.raytrace.RayTracer::main, threads, "160", "120"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void sor(String threads) throws Exception {
        assertEquals("grid 64x64 iterations 50\n"
                        + "sum 7.6601483009e+04 weighted 6.1058225122e+05 probe 5.6810581990e+01\n"
                        + "bits 40f2b397ba67faf2\n",
                run(samples.sor.Sor::main, threads, "64", "50"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void matMul(String threads) throws Exception {
        assertEquals("C = A x B, n = 60: sum -2552587 hash eed8a3466c75a529 corner -22801\n",
                run(samples.matmul.MatMul::main, threads, "60"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void boundedBuffer(String threads) throws Exception {
        assertEquals("items 20000 capacity 4: consumed 20000, sum 10485699194\n",
                run(samples.bin.BoundedBuffer::main, threads, "20000", "4"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void tsp(String threads) throws Exception {
        assertEquals("cities 9 jobs 56 shortest tour 2309\n", run(samples.tsp.Tsp::main, threads, "9"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void linkedListBuild(String threads) throws Exception {
        assertEquals("list of 10000 nodes: sum 82806488401 hash 7a8a421ecf6f146d\n",
                run(samples.linkedlist.LinkedListBuild::main, threads, "10000"));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void twoPhase(int threads) throws Exception {
        StringBuilder expected = new StringBuilder("phase 1: " + threads + " writers filled 3000 bytes and 750 ints\n");
        for (int t = 0; t < threads; t++) {
            expected.append("phase 2: reader ").append(t).append(" summed bytes to 187104 and ints to 280875\n");
        }
        assertEquals(expected.toString(), run(samples.phases.TwoPhase::main, String.valueOf(threads), "3000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void tournamentBarrier(String threads) throws Exception {
        assertEquals("500 rounds over 300 elements: checksum 2738c477c4d80228, the same for every party\n",
                run(samples.barrier.TournamentBarrier::main, threads, "500", "300"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void pipelinedSor(String threads) throws Exception {
        assertEquals("pipelined grid 64x64 iterations 20, equal to the sequential relaxation\n"
                        + "sum 5.2627918104e+04 weighted 4.1875165515e+05 probe 2.7846629262e+01\n"
                        + "bits 40e9b27d611c96c2\n",
                run(samples.sor.PipelinedSor::main, threads, "64", "20"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void luFact(String threads) throws Exception {
        assertEquals("LU of a 100x100 matrix with partial pivoting: normalized residual 1.6701 (below 16),"
                        + " max |x - 1| 6.839e-14\n",
                run(samples.lu.LuFact::main, threads, "100"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void molDyn(String threads) throws Exception {
        assertEquals("molecular dynamics of 108 particles, 10 steps: energy -670.635020095 to -670.634999625,"
                        + " drift 3.052e-08 (below 1e-05)\n",
                run(samples.md.MolDyn::main, threads, "3", "10"));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void syncMethods(int threads) throws Exception {
        assertEquals("synchronized method, " + threads + " threads x 20000 calls: own counters 20000 calls and sum"
                        + " 199990000 each; shared counter " + 20000 * threads + " calls and sum " + 199990000L * threads + "\n",
                run(samples.sync.SyncMethods::main, String.valueOf(threads), "20000"));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void syncBlocks(int threads) throws Exception {
        assertEquals("synchronized block, " + threads + " threads x 20000 calls: shared counter " + 20000 * threads
                        + " calls and sum " + 199990000L * threads + "\n",
                run(samples.sync.SyncBlocks::main, String.valueOf(threads), "20000", "shared"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void shortThreads(String threads) throws Exception {
        assertEquals("300 short threads: 14167 Collatz steps in all, the most (127) for 231\n",
                run(samples.forkjoin.ShortThreads::main, threads, "300"));
    }

    /** The sample installs a default handler for the whole JVM, this test's included: it is put back after. */
    @Test
    void uncaughtHandlers() throws Exception {
        Thread.UncaughtExceptionHandler saved = Thread.getDefaultUncaughtExceptionHandler();
        try {
            assertEquals("task-00 completed with 1\n"
                            + "task-05 completed with 26\n"
                            + "task-01: java.lang.IllegalStateException: task 1 found its input inconsistent (own handler)\n"
                            + "task-02: java.lang.ArithmeticException: / by zero (default handler)\n"
                            + "task-03: java.lang.ArrayIndexOutOfBoundsException: Index 3 out of bounds for length 3"
                            + " (default handler)\n"
                            + "task-04: samples.handlers.UncaughtHandlers$TaskFailure: task 4 gave up (default handler)\n"
                            + "task-06: java.lang.IllegalStateException: task 6 found its input inconsistent"
                            + " (default handler)\n"
                            + "task-07: java.lang.ArithmeticException: / by zero (default handler)\n",
                    run(samples.handlers.UncaughtHandlers::main, "8"));
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(saved);
        }
    }

    /** The midpoint sum's last digits depend on the split too, but these two splits agree to 12 places. */
    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void mainShare(int helpers) throws Exception {
        assertEquals("integral of sin over [0, pi] in " + (helpers + 1) + " shares of 100000 intervals: 2.000000000082\n",
                run(samples.mainshare.MainShare::main, String.valueOf(helpers), "100000"));
    }

    /** Pi's last digits depend on how the interval is split, so each thread count has its own truth. */
    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void pi(String threads) throws Exception {
        String error = threads.equals("1") ? "8.368e-12" : "8.345e-12";
        assertEquals("pi with " + threads + " threads and 100000 intervals: 3.141592653598\nerror: " + error + "\n",
                run(samples.pi.Pi::main, threads, "100000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void sparseMatVec(String threads) throws Exception {
        assertEquals("y = A x, 4000 rows, 40000 nonzeros, 20 times: sum 2.5884224200e+03, y[0] 3.3126480000e+01,"
                        + " y[3999] 7.7260400000e+00\n",
                run(samples.spmv.SparseMatVec::main, threads, "4000", "10", "20"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void fourierSeries(String threads) throws Exception {
        assertEquals("200 coefficients of (x+1)^x on [0,2], 200 steps each\n"
                        + "a_0 2.881984335 b_0 0.000000000\n"
                        + "a_1 1.134167997 b_1 -1.881880826\n"
                        + "a_2 0.362352891 b_2 -1.164387511\n"
                        + "a_3 0.170449536 b_3 -0.814080921\n"
                        + "a_199 1.134167997e+00 b_199 1.881880826e+00\n",
                run(samples.series.FourierSeries::main, threads, "200", "200"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void crypt(String threads) throws Exception {
        assertEquals("XTEA over 400000 bytes and back: round trip exact, ciphertext CRC-32 47737210\n",
                run(samples.crypt.Crypt::main, threads, "400000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void monteCarlo(String threads) throws Exception {
        assertEquals("500 paths of 500 steps: mean final price 103.50741700, spread 25.16670375\n",
                run(samples.montecarlo.MonteCarlo::main, threads, "500", "500"));
    }
}
