package dev.distvm.mpi.engine;

import java.util.concurrent.CompletableFuture;

/**
 * A receive waiting for its message. Completes with the message, or exceptionally when the
 * message can no longer come (the sender died, or the job is failing).
 */
public final class PostedReceive {
    final int context;
    final int source;
    final int tag;
    /** Where the payload may be decoded as it arrives; null for a probe's pattern. */
    final ReceiveBuffer buffer;
    private final CompletableFuture<Message> arrival = new CompletableFuture<>();
    private volatile boolean cancelled;

    PostedReceive(int context, int source, int tag, ReceiveBuffer buffer) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.buffer = buffer;
    }

    boolean matches(MessageHeader header) {
        return header.context() == context
                && (source == Matcher.ANY_SOURCE || source == header.source())
                && (tag == Matcher.ANY_TAG || tag == header.tag());
    }

    public CompletableFuture<Message> arrival() {
        return arrival;
    }

    public boolean cancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
        arrival.complete(null);
    }

    public int source() {
        return source;
    }
}
