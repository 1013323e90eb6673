package dev.distvm.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The object space's unit costs against their floors, in one run (issue 3's targets in brackets):
 * <ul>
 *   <li>an object fault: a worker's acquire that brings a shared object it has never had (copies
 *       travel with their state, so the refresh at the acquire is where an object is faulted in)
 *       vs the raw socket round trip [at most 2x]; a volatile read when nothing changed (no
 *       message since issue 16) is printed beside it;
 *   <li>a spinning thread's read of a volatile field of a copy nobody writes vs the same read of
 *       the worker's own object [issue 16: at most 1.1x]; and the hand-over of a volatile's written
 *       value between a thread at the home and one on the worker, each spinning on the other's
 *       field (one way, the mean of both directions), vs the raw round trip [issue 16: at most 2x];
 *   <li>a read of a field of a valid copy on a worker vs a local read [1.2x]: a read of the same
 *       field of the worker's own (unshared) objects in the same thread, and for reference a read
 *       on a plain JVM (which also shows what dist costs a node that shares nothing);
 *   <li>an uncontended monitor enter and exit of a shared object on a worker, last held there (the
 *       worker keeps the home's monitor between them: a lease), vs the same on an object of the
 *       worker's own [issue 16: at most 1.2x; JESSICA: 34x a local acquire], and vs the raw round
 *       trip [issue 3: at most 2x];
 *   <li>a worker's release after one element of a shared 1 MB array changed vs the release after
 *       one field of a small object changed, timed before the array existed [issue 15: at most
 *       1.5x]: releases cost what was written, not what is shared; the small object's release
 *       with the array shared is printed beside it. The release is a volatile write's, sent one
 *       way;
 *   <li>a thread on the worker that reads an eighth of a shared 64 MB array ({@code perfapp.PartialRead}):
 *       the object-space bytes the worker received, from the run report, vs the array's size
 *       [issue 15: at most a quarter];
 *   <li>a counter under one monitor, 4 threads on 2 nodes ({@code samples.sync.SyncMethods} on its
 *       shared counter, a million calls a thread so that the threads' start does not decide the
 *       figure), vs the same kernel on one plain JVM [issue 16: at most 3x]; pinned, each node and
 *       the plain JVM have one CPU.
 * </ul>
 * The costs come from {@code perfapp.SsiCosts} running on 2 nodes; the raw round trip from a
 * blocking NIO ping-pong of 1 byte between two JVMs ({@link MpiPingPong#raw}), measured between
 * the dist runs. By default each side of both is pinned to its own CPU (the home and the
 * ping-pong's client on CPU 0, the worker and its server on CPU 1), as two hosts would have them:
 * unpinned, the raw round trip on this 2-vCPU VM is 15 or 55 us depending on where the scheduler
 * puts the two processes, and the ratio says more about that than about dist. {@code --unpinned}
 * leaves placement to the scheduler.
 *
 * <p>usage: ObjectSpaceCosts [--build DIR] [--repeats N] [--unpinned]
 */
public final class ObjectSpaceCosts {
    private static final String USAGE = "usage: ObjectSpaceCosts [--build DIR] [--repeats N] [--unpinned]";
    private static final List<String> PROGRAM = List.of("perfapp.SsiCosts");
    private static final List<String> COUNTER = List.of("samples.sync.SyncMethods", "4", "1000000", "shared");
    private static final List<String> PARTIAL_READ = List.of("perfapp.PartialRead");
    private static final double PARTIAL_READ_ARRAY_BYTES = 64.0 * 1024 * 1024;

    private ObjectSpaceCosts() {}

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse(args, USAGE, Set.of("--build", "--repeats"),
                Set.of("--unpinned"), false);
        Path build = Path.of(options.value("--build", "build"));
        int repeats = options.count("--repeats", 3);
        boolean pinned = !options.flag("--unpinned");
        if (pinned) {
            pinThisJvm("0"); // the raw ping-pong's client runs here
        }
        SampleRuns runs = new SampleRuns(build, pinned);
        List<String> rawServer = pinned ? List.of("taskset", "-c", "1") : List.of();
        System.out.println(pinned ? "home and raw client on CPU 0, worker and raw server on CPU 1"
                : "placement left to the scheduler");
        List<Double> faultRatios = new ArrayList<>();
        List<Double> readRatios = new ArrayList<>();
        List<Double> monitorRatios = new ArrayList<>();
        List<Double> releaseRatios = new ArrayList<>();
        List<Double> volatileRatios = new ArrayList<>();
        List<Double> handOverRatios = new ArrayList<>();
        List<Double> counterRatios = new ArrayList<>();
        List<Double> partialReadShares = new ArrayList<>();
        String counted = runs.output(SampleRuns.PLAIN, "samples.jar", COUNTER);
        String partiallyRead = runs.output(SampleRuns.PLAIN, "perf-app.jar", PARTIAL_READ);
        for (int r = 1; r <= repeats; r++) {
            double raw = MpiPingPong.raw(false, rawServer).latencyMicros();
            Map<String, Double> dist = parse(runs.output(2, "perf-app.jar", PROGRAM));
            Map<String, Double> plain = parse(runs.output(SampleRuns.PLAIN, "perf-app.jar",
                    List.of("perfapp.SsiCosts", "--plain")));
            System.out.printf("run %d: raw round trip %.1f us%n", r, raw);
            if (dist.get("fault_us") < raw / 10) {
                // An acquire that brings an object from the home crosses the network.
                throw new IllegalStateException("the probe's faults took " + dist.get("fault_us")
                        + " us against a " + raw + " us round trip: the probe ran at the home, and the figures"
                        + " would be local costs; see perfapp.SsiCosts on where its threads are placed");
            }
            System.out.printf("  object fault (an acquire that brings an object new to the worker) %.1f us = %.2fx raw"
                    + " (target <= 2x; %.0f faults; a volatile read after nothing changed %.3f us)%n",
                    dist.get("fault_us"), dist.get("fault_us") / raw, dist.get("faults"), dist.get("empty_refresh_us"));
            double volatileRatio = dist.get("volatile_read_ns") / dist.get("local_volatile_read_ns");
            System.out.printf("  spinning volatile read of a copy %.3f ns = %.2fx the worker's own object's (%.3f ns;"
                    + " target <= 1.1x)%n", dist.get("volatile_read_ns"), volatileRatio, dist.get("local_volatile_read_ns"));
            volatileRatios.add(volatileRatio);
            double handOver = dist.get("volatile_handover_us");
            System.out.printf("  hand-over of a volatile's written value between the home and the worker, one way %.1f us"
                    + " = %.2fx raw (target <= 2x)%n", handOver, handOver / raw);
            handOverRatios.add(handOver / raw);
            double copyRead = dist.get("copy_read_ns");
            System.out.printf("  read of a valid copy %.3f ns = %.2fx a local read (the worker's own objects, %.3f ns;"
                    + " target <= 1.2x) = %.2fx a plain JVM read (%.3f ns)%n", copyRead,
                    copyRead / dist.get("worker_local_read_ns"), dist.get("worker_local_read_ns"),
                    copyRead / plain.get("plain_read_ns"), plain.get("plain_read_ns"));
            double monitorRatio = dist.get("monitor_us") / dist.get("local_monitor_us");
            System.out.printf("  monitor enter+exit of a shared object last held on the worker %.4f us = %.2fx the worker's own"
                    + " object's (%.4f us; target <= 1.2x) = %.3fx raw (target <= 2x)%n", dist.get("monitor_us"),
                    monitorRatio, dist.get("local_monitor_us"), dist.get("monitor_us") / raw);
            double releaseRatio = dist.get("release_array_us") / dist.get("release_small_us");
            System.out.printf("  release after one element of a 1 MB array changed %.2f us = %.2fx the release after one"
                    + " field of a small object changed, before the array was shared (%.2f us; target <= 1.5x;"
                    + " with the array shared %.2f us)%n", dist.get("release_array_us"), releaseRatio,
                    dist.get("release_small_us"), dist.get("release_small_beside_array_us"));
            releaseRatios.add(releaseRatio);
            double counterPlain = runs.medianTimes(SampleRuns.PLAIN, "samples.jar", COUNTER, 1, counted).kernelMillis();
            double counterDist = runs.medianTimes(2, "samples.jar", COUNTER, 1, counted).kernelMillis();
            System.out.printf("  a counter under one monitor, 4 threads x 1,000,000 calls: 2 nodes %.0f ms = %.2fx one plain"
                    + " JVM (%.0f ms; target <= 3x)%n", counterDist, counterDist / counterPlain, counterPlain);
            counterRatios.add(counterDist / counterPlain);
            double moved = partialReadMoved(runs, partiallyRead);
            System.out.printf("  a thread on the worker reading an eighth of a shared 64 MB array: the worker received %.1f MB"
                    + " = %.3f of the array (target <= 0.25)%n", moved / 1e6, moved / PARTIAL_READ_ARRAY_BYTES);
            partialReadShares.add(moved / PARTIAL_READ_ARRAY_BYTES);
            faultRatios.add(dist.get("fault_us") / raw);
            readRatios.add(copyRead / dist.get("worker_local_read_ns"));
            monitorRatios.add(monitorRatio);
        }
        System.out.printf("medians of %d runs: object fault %.2fx raw, copy read %.2fx a local read, shared monitor"
                + " re-entered %.2fx a local one, spinning volatile read %.2fx a local one, volatile hand-over %.2fx raw,"
                + " 1 MB array release %.2fx a"
                + " small object's, shared counter on 2 nodes %.2fx one JVM, an eighth of 64 MB read on the worker moved"
                + " %.3f of it%n",
                repeats, median(faultRatios), median(readRatios), median(monitorRatios), median(volatileRatios),
                median(handOverRatios), median(releaseRatios), median(counterRatios), median(partialReadShares));
    }

    /**
     * Runs {@code perfapp.PartialRead} on 2 nodes with a report and returns the object-space bytes its
     * worker received, after checking that it printed what a plain JVM prints and that one reader ran there.
     */
    private static double partialReadMoved(SampleRuns runs, String expected) throws IOException, InterruptedException {
        Path report = java.nio.file.Files.createTempFile("dist-partial-read", ".json");
        try {
            String printed = runs.output(2, ",report=" + report, "perf-app.jar", PARTIAL_READ);
            if (!printed.equals(expected)) {
                throw new IllegalStateException("perfapp.PartialRead printed " + printed + " where a plain JVM printed " + expected);
            }
            String json = java.nio.file.Files.readString(report);
            java.util.regex.Matcher worker = java.util.regex.Pattern.compile(
                    "\"role\": \"worker\"(?s:.*?)\"objectSpace\": \\{[^}]*\"bytesReceived\": (\\d+)").matcher(json);
            // On the worker, whatever its number: a worker that joins before its home gets number 1.
            boolean readerOnWorker = java.util.regex.Pattern.compile("\"reader-0: node \\d+\"").matcher(json).find();
            if (!readerOnWorker || !worker.find()) {
                throw new IllegalStateException("perfapp.PartialRead's first reader did not run on the worker: " + json);
            }
            return Double.parseDouble(worker.group(1));
        } finally {
            java.nio.file.Files.deleteIfExists(report);
        }
    }

    private static void pinThisJvm(String cpus) throws IOException, InterruptedException {
        Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, String.valueOf(ProcessHandle.current().pid()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (taskset.waitFor() != 0) {
            throw new IllegalStateException("taskset could not pin the benchmark to CPU " + cpus
                    + " (is util-linux installed? run with --unpinned otherwise)");
        }
    }

    private static double median(List<Double> values) {
        return SampleRuns.median(values.stream().mapToDouble(Double::doubleValue).toArray());
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
