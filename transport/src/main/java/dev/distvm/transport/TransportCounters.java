package dev.distvm.transport;

import java.util.concurrent.atomic.LongAdder;

/** Messages and bytes that crossed an endpoint, for the run report. */
public final class TransportCounters {
    final LongAdder messagesSent = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder messagesReceived = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder rejected = new LongAdder();

    /** A frame of {@code frameBytes}, its length prefix included, went out. */
    void sent(int frameBytes) {
        messagesSent.increment();
        bytesSent.add(frameBytes);
    }

    /** A frame of {@code bodyBytes} and its 4-byte length prefix came in. */
    void received(int bodyBytes) {
        messagesReceived.increment();
        bytesReceived.add(bodyBytes + 4L);
    }

    public long messagesSent() {
        return messagesSent.sum();
    }

    public long bytesSent() {
        return bytesSent.sum();
    }

    public long messagesReceived() {
        return messagesReceived.sum();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /**
     * Incoming envelopes refused (malformed, wrong version, unknown type) and connections closed
     * before they authenticated (failed proof, timeout, over a limit).
     */
    public long rejected() {
        return rejected.sum();
    }
}
