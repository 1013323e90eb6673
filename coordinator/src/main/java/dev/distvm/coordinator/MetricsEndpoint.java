package dev.distvm.coordinator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.distvm.common.DaemonThreads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * An HTTP listener that answers {@code GET /metrics} with the coordinator's table as OpenMetrics
 * text, for Prometheus. Plain HTTP without a secret, so it binds where it is told, loopback unless
 * the user names another address; it shows the table, never changes it.
 */
public final class MetricsEndpoint implements AutoCloseable {
    public static final String PATH = "/metrics";

    private final HttpServer server;
    private final ExecutorService threads;

    private MetricsEndpoint(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /**
     * Where to listen, from {@code PORT} (on loopback) or {@code HOST:PORT}; port 0 takes a free one.
     *
     * @throws IllegalArgumentException naming what is wrong with {@code text}
     */
    public static InetSocketAddress address(String text) {
        int colon = text.lastIndexOf(':');
        String host = colon < 0 ? InetAddress.getLoopbackAddress().getHostAddress() : text.substring(0, colon);
        String port = text.substring(colon + 1);
        if (!port.matches("\\d{1,5}") || Integer.parseInt(port) > 65535 || host.isEmpty()) {
            throw new IllegalArgumentException("metrics takes PORT (on loopback) or HOST:PORT, got '" + text + "'");
        }
        return new InetSocketAddress(host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host,
                Integer.parseInt(port));
    }

    /** @throws IOException when it cannot listen at {@code at}, in words that say what to do */
    static MetricsEndpoint start(InetSocketAddress at, Supplier<String> metrics) throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(at, 8);
        } catch (IOException e) {
            throw new IOException("cannot serve metrics at " + at.getHostString() + ":" + at.getPort() + " (" + e.getMessage()
                    + "): choose another port, or 0 for a free one", e);
        }
        server.createContext(PATH, exchange -> answer(exchange, metrics));
        ExecutorService threads = Executors.newSingleThreadExecutor(DaemonThreads.named("dist-metrics"));
        server.setExecutor(threads);
        // The server's dispatcher thread is a daemon only if the thread that starts it is one; a
        // non-daemon one would keep the home's JVM alive after the program ended.
        Thread starter = DaemonThreads.start("dist-metrics-start", server::start);
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.stop(0);
            threads.shutdownNow();
            throw new IOException("interrupted while starting the metrics listener");
        }
        return new MetricsEndpoint(server, threads);
    }

    private static void answer(HttpExchange exchange, Supplier<String> metrics) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] body = metrics.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", OpenMetricsText.CONTENT_TYPE);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** Where Prometheus scrapes: {@code http://HOST:PORT/metrics}. */
    public String url() {
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort() + PATH;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
