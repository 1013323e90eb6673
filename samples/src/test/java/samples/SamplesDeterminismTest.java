package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs each sample's main in this JVM with a small problem size and 1 or 3 threads and compares its
 * stdout with the single-JVM truth. The expected strings were obtained by running the samples
 * (java -cp build/samples.jar samples.X.Main threads size...) on one plain JDK 17 JVM with 1, 2, 3
 * and 4 threads, three times each, and checking the outputs were identical; the TSP lengths were
 * also checked against an independent Held-Karp dynamic program. Distributed runs of the same
 * commands must print exactly these strings.
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

    /** Pi's last digits depend on how the interval is split, so each thread count has its own truth. */
    @ParameterizedTest
    @ValueSource(strings = {"1", "3"})
    void pi(String threads) throws Exception {
        String error = threads.equals("1") ? "8.368e-12" : "8.345e-12";
        assertEquals("pi with " + threads + " threads and 100000 intervals: 3.141592653598\nerror: " + error + "\n",
                run(samples.pi.Pi::main, threads, "100000"));
    }
}
