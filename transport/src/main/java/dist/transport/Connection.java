package dist.transport;

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

    void send(byte[] frame) throws IOException {
        send(frame, 0, frame.length);
    }

    /** Writes the whole frame held in {@code length} bytes from {@code frame[offset]}. */
    void send(byte[] frame, int offset, int length) throws IOException {
        synchronized (writeLock) {
            frames.write(frame, offset, length);
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
