package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.ClusterSecret;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's OpenMetrics endpoint, read as Prometheus would and checked by an independent
 * parser (the Python Prometheus client's strict OpenMetrics parser, Debian's python3-prometheus-client,
 * which {@code ./dist test} installs): a coordinator started apart with a worker joined, whose death
 * the metrics then show, and a home's embedded coordinator. And {@code dist top}, which shows the
 * same table.
 */
class MetricsIT {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    /** Prints each metric family's name and type, then each sample; fails on text the format does not allow. */
    private static final String PARSE = """
            import sys
            from prometheus_client.openmetrics.parser import text_string_to_metric_families
            for family in text_string_to_metric_families(sys.stdin.read()):
                print("family", family.name, family.type)
                for sample in family.samples:
                    print("sample", sample.name, sorted(sample.labels.items()), sample.value)
            """;

    private final ClusterSecret secret = ClusterSecret.random();
    private final List<Jvm> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path directory;

    @AfterEach
    void stopEverything() {
        processes.forEach(Jvm::close);
    }

    private Jvm started(Jvm jvm) {
        processes.add(jvm);
        return jvm;
    }

    @Test
    void aCoordinatorServesItsTableAsOpenMetricsTextAndTopShowsIt() throws Exception {
        String address = "tcp://127.0.0.1:" + CoordinatorIT.freePort();
        Jvm coordinator = started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()), List.of("-jar", Jvm.DIST_JAR.toString(),
                "coordinator", "--bind", address, "--metrics", "0")));
        String url = coordinator.awaitLine("metrics \\(OpenMetrics, for Prometheus\\) at (http://127\\.0\\.0\\.1:\\d+/metrics)$",
                Duration.ofSeconds(60)).group(1);
        Jvm worker = started(Jvm.start(Map.of(ClusterSecret.ENV, secret.value()), List.of(
                "-javaagent:" + Jvm.DIST_JAR + "=role=worker,join=" + address, "-cp", Jvm.DIST_JAR.toString(),
                "dev.distvm.agent.WorkerMain")));
        String up = "sample dist_node_up [('address', 'tcp://127.0.0.1:";
        String workerUp = awaitSamples(url, samples -> samples.contains("pid', '" + worker.pid() + "'"), "the worker's join");
        assertTrue(workerUp.contains("family dist_node_up gauge"), workerUp);
        assertTrue(workerUp.contains("family dist_membership_changes counter"), workerUp);
        assertTrue(workerUp.contains("sample dist_membership_changes_total [] 1"), workerUp);
        assertTrue(workerUp.contains("sample dist_nodes [('state', 'alive')] 1"), workerUp);
        assertTrue(workerUp.lines().anyMatch(line -> line.startsWith(up) && line.contains("('pid', '" + worker.pid() + "')")
                && line.contains("('role', 'worker')") && line.endsWith(" 1")), workerUp);
        assertTrue(workerUp.contains("sample dist_node_heap_max_bytes [('node', '1')]"), workerUp);

        try (Jvm top = Jvm.start(Map.of(ClusterSecret.ENV, secret.value()), List.of("-jar", Jvm.DIST_JAR.toString(),
                "top", "--coordinator", address, "--count", "2", "--interval", "1"))) {
            assertEquals(0, top.awaitExit(Duration.ofSeconds(60)), top.output());
            assertEquals(2, top.stdout().stream().filter(line -> line.startsWith("dist top: " + address + ", 1 node alive,"))
                    .count(), top.output());
            assertEquals(2, top.stdout().stream().filter(line -> line.matches("1 +worker +alive +" + worker.pid() + " .*"))
                    .count(), top.output());
        }

        worker.process().destroyForcibly();
        String workerDead = awaitSamples(url, samples -> samples.contains("sample dist_nodes [('state', 'dead')] 1"),
                "the worker's death");
        assertTrue(workerDead.lines().anyMatch(line -> line.startsWith(up) && line.contains("('pid', '" + worker.pid() + "')")
                && line.endsWith(" 0")), workerDead);
        assertTrue(workerDead.contains("sample dist_membership_changes_total [] 2"), workerDead);

        HttpResponse<Void> other = http.send(HttpRequest.newBuilder(URI.create(url.replace("/metrics", "/other"))).build(),
                HttpResponse.BodyHandlers.discarding());
        assertEquals(404, other.statusCode());
    }

    @Test
    void aHomeServesItsEmbeddedCoordinatorsMetrics() throws Exception {
        Jvm home = started(Jvm.home("nodes=2,metrics=0", Jvm.TEST_CLASSES.toString(), "itapp.ProfiledWork"));
        String url = home.awaitLine("^\\[dist\\] metrics \\(OpenMetrics, for Prometheus\\) at (http://127\\.0\\.0\\.1:\\d+/metrics)$",
                Duration.ofSeconds(60)).group(1);
        String samples = awaitSamples(url, text -> text.contains("sample dist_nodes [('state', 'alive')] 2"), "both nodes");
        assertTrue(samples.contains("('role', 'home')"), samples);
        home.process().getOutputStream().close();
        assertEquals(0, home.awaitExit(Duration.ofSeconds(60)), home.output());
    }

    @Test
    void theParserRefusesTextThatIsNotOpenMetrics() throws Exception {
        // Without this, a parser that accepted anything would pass the tests above.
        assertNotEquals(0, parse("# TYPE dist_nodes gauge\ndist_nodes 1\n").exitCode(), "no # EOF");
        assertNotEquals(0, parse("# TYPE dist_changes counter\ndist_changes 1\n# EOF\n").exitCode(), "a counter without _total");
        assertEquals(0, parse("# TYPE dist_nodes gauge\ndist_nodes 1\n# EOF\n").exitCode());
    }

    /** Scrapes {@code url} until the parsed samples satisfy {@code wanted}; returns them. */
    private String awaitSamples(String url, Predicate<String> wanted, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8",
                    response.headers().firstValue("Content-Type").orElse(""));
            Parsed parsed = parse(response.body());
            assertEquals(0, parsed.exitCode(), "the OpenMetrics parser refused:\n" + parsed.output() + "\n" + response.body());
            last = parsed.output();
            if (wanted.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the metrics never showed " + what + ":\n" + last);
    }

    private record Parsed(int exitCode, String output) {}

    private Parsed parse(String text) throws IOException, InterruptedException {
        if (!Files.isExecutable(PYTHON)) {
            throw new AssertionError(PYTHON + " is missing: the metrics are checked by python3-prometheus-client's parser;"
                    + " ./dist test installs it when run as root (apt-get install python3-prometheus-client)");
        }
        Path input = Files.writeString(Files.createTempFile(directory, "metrics", ".txt"), text);
        Path output = Files.createTempFile(directory, "parsed", ".txt");
        Process parser = new ProcessBuilder(PYTHON.toString(), "-c", PARSE).redirectInput(input.toFile())
                .redirectOutput(output.toFile()).redirectErrorStream(true).start();
        try {
            if (!parser.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("the OpenMetrics parser did not finish within 60 s");
            }
            return new Parsed(parser.exitValue(), Files.readString(output));
        } finally {
            parser.destroyForcibly();
        }
    }
}
