package dev.distvm.transport;

import com.google.protobuf.Int32Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The endpoints one test opens, on loopback and in one cluster unless asked otherwise. Closing it
 * (from {@code @AfterEach}) closes every one of them, whatever the test's outcome, so that no
 * listener or reader thread outlives its test.
 */
final class Endpoints implements AutoCloseable {
    /** Message types of the tests; far from the coordinator's 16..63. */
    static final int ECHO = 100;
    static final int SILENT = 101;
    static final int UNHANDLED = 102;

    private final ClusterSecret secret = ClusterSecret.random();
    private final List<Endpoint> opened = new ArrayList<>();

    ClusterSecret secret() {
        return secret;
    }

    TransportConfig config() {
        return TransportConfig.loopback(secret);
    }

    TransportConfig config(int maxFrameBytes) {
        TransportConfig loopback = config();
        return new TransportConfig(loopback.bindAddress(), secret, maxFrameBytes, loopback.requestTimeout());
    }

    Endpoint open() {
        return open(config());
    }

    Endpoint open(TransportConfig config) {
        Endpoint endpoint = Endpoint.open(config);
        opened.add(endpoint);
        return endpoint;
    }

    /** An endpoint whose ECHO handler answers a number with the next one. */
    Endpoint openEchoServer() {
        return withEcho(open());
    }

    static Endpoint withEcho(Endpoint endpoint) {
        endpoint.registerImmediate(ECHO, m -> number(m.decode(Int32Value.parser()).getValue() + 1));
        return endpoint;
    }

    static Int32Value number(int value) {
        return Int32Value.of(value);
    }

    static int numberIn(Inbound message) {
        return message.decode(Int32Value.parser()).getValue();
    }

    @Override
    public void close() {
        opened.forEach(Endpoint::close);
        opened.clear();
    }
}
