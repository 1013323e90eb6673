package dist.perf;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The object space's unit costs against their floors, in one run (issue 3's targets in brackets):
 * <ul>
 *   <li>a refresh that brings a changed shared object to a worker (this design's object fault:
 *       copies travel with their state, and an acquire re-fetches what changed) vs the raw socket
 *       round trip [at most 2x];
 *   <li>a read of a field of a valid copy on a worker vs a local read [1.2x]: a read of the same
 *       field of the worker's own (unshared) objects in the same thread, and for reference a read
 *       on a plain JVM (which also shows what dist costs a node that shares nothing);
 *   <li>an uncontended monitor enter and exit of a shared object on a worker (its lock is the
 *       home's) vs the raw round trip [2x; JESSICA: 34x a local acquire].
 * </ul>
 * The costs come from {@code perfapp.SsiCosts} running on 2 nodes; the raw round trip from a
 * blocking NIO ping-pong of 1 byte between two JVMs ({@link MpiPingPong#raw}).
 *
 * <p>usage: ObjectSpaceCosts [--build DIR] [--repeats N]
 */
public final class ObjectSpaceCosts {
    private static final List<String> PROGRAM = List.of("perfapp.SsiCosts");

    private ObjectSpaceCosts() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args, "usage: ObjectSpaceCosts [--build DIR] [--repeats N]",
                Set.of("--build", "--repeats"), Set.of(), false);
        Path build = Path.of(options.value("--build", "build"));
        int repeats = options.count("--repeats", 3);
        SampleRuns runs = new SampleRuns(build);
        for (int r = 1; r <= repeats; r++) {
            double raw = MpiPingPong.raw(false).latencyMicros();
            Map<String, Double> dist = parse(runs.output(2, "perf-app.jar", PROGRAM));
            Map<String, Double> plain = parse(runs.output(SampleRuns.PLAIN, "perf-app.jar",
                    List.of("perfapp.SsiCosts", "--plain")));
            System.out.printf("run %d: raw round trip %.1f us%n", r, raw);
            System.out.printf("  refresh bringing a changed object %.1f us = %.2fx raw (target <= 2x)%n",
                    dist.get("refresh_us"), dist.get("refresh_us") / raw);
            double copyRead = dist.get("copy_read_ns");
            System.out.printf("  read of a valid copy %.3f ns = %.2fx a local read (the worker's own objects, %.3f ns;"
                    + " target <= 1.2x) = %.2fx a plain JVM read (%.3f ns)%n", copyRead,
                    copyRead / dist.get("worker_local_read_ns"), dist.get("worker_local_read_ns"),
                    copyRead / plain.get("plain_read_ns"), plain.get("plain_read_ns"));
            System.out.printf("  monitor enter+exit of a shared object %.1f us = %.2fx raw (target <= 2x)%n",
                    dist.get("monitor_us"), dist.get("monitor_us") / raw);
        }
    }

    private static Map<String, Double> parse(String output) {
        Map<String, Double> values = new HashMap<>();
        for (String line : output.split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 2) {
                values.put(parts[0], Double.parseDouble(parts[1]));
            }
        }
        return values;
    }
}
