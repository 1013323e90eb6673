package dev.distvm.io;

import dev.distvm.node.proto.NodeMessageType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A worker's {@code System.in}: the home's. Each read asks the home for what one read of its
 * {@code System.in} gives, up to the bytes wanted ({@link HomeInput} serves it), so threads on
 * every node consume one input, and a read returns as soon as the home has anything, as a read of
 * a terminal or pipe does. Like such a read, it is not interruptible: an interrupt stays pending.
 * {@code available()} answers 0 (nothing is known to be here without asking the home).
 */
final class RemoteInput extends InputStream {
    private final HomeLink home;

    RemoteInput(HomeLink home) {
        this.home = home;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        byte[] reply = ask(HomeInput.readRequest(Math.min(len, HomeInput.MAX_READ)));
        if (reply[0] == HomeInput.END) {
            return -1;
        }
        System.arraycopy(reply, 1, b, off, reply.length - 1);
        return reply.length - 1;
    }

    /** Closes the home's System.in, as closing System.in in one JVM closes it for every thread. */
    @Override
    public void close() throws IOException {
        ask(HomeInput.closeRequest());
    }

    /** The home's reply to a request: DATA or END, or the home's failure thrown here. */
    private byte[] ask(byte[] request) throws IOException {
        byte[] reply;
        try {
            reply = home.call(NodeMessageType.SPACE_INPUT_VALUE, request);
        } catch (RuntimeException e) {
            throw new IOException("System.in is the home's, and reading it failed: " + e.getMessage(), e);
        }
        if (reply[0] == HomeInput.FAILED) {
            throw new IOException(new String(reply, 1, reply.length - 1, StandardCharsets.UTF_8));
        }
        return reply;
    }
}
