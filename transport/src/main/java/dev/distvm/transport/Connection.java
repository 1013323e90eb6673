package dev.distvm.transport;

import java.io.IOException;

/**
 * One socket between two endpoints. Any thread may send (frames are written whole, under a lock,
 * so one peer receives them in the order they were sent); one reader thread owns the receiving side.
 */
final class Connection {
    private final String peer;
    private final FrameChannel frames;
    private final Object writeLock = new Object();
    private volatile boolean closed;

    Connection(String peer, FrameChannel frames) {
        this.peer = peer;
        this.frames = frames;
    }

    String peer() {
        return peer;
    }

    FrameChannel frames() {
        return frames;
    }

    void send(EnvelopeFrames.Frame frame) throws IOException {
        synchronized (writeLock) {
            frames.write(frame.array(), frame.offset(), frame.length());
        }
    }

    boolean isClosed() {
        return closed;
    }

    void close() {
        closed = true;
        frames.close();
    }
}
