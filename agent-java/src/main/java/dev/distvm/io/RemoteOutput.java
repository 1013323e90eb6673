package dev.distvm.io;

import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.transport.WireBuffer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * System.out/err of this worker, sent to the home in order (one connection, one sender). It
 * collects what it is given until {@link #send()}: its {@link RemotePrintStream} sends once per
 * call, so that what one {@code println} or {@code printf} prints reaches the home as one message,
 * which the home prints whole. Only that stream writes here, under its lock.
 */
final class RemoteOutput extends OutputStream {
    /** Beyond this a single call's output leaves in several messages, which the home may interleave with others. */
    private static final int MOST_HELD = 1 << 20;

    private final PrintStream ownError = new PrintStream(new FileOutputStream(FileDescriptor.err), true);
    private final HomeLink home;
    private final byte stream;
    private byte[] pending = new byte[256];
    private int length;

    RemoteOutput(HomeLink home, byte stream) {
        this.home = home;
        this.stream = stream;
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (length + len > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(length + len, 2 * pending.length));
        }
        System.arraycopy(b, off, pending, length, len);
        length += len;
        if (length >= MOST_HELD) {
            send();
        }
    }

    /** The stream's own flushes (a newline within a call) wait for the end of the call. */
    @Override
    public void flush() {}

    /** Sends what was written since the last send, if anything. */
    void send() {
        if (length == 0) {
            return;
        }
        WireBuffer message = new WireBuffer(length + 1);
        message.appendByte(stream);
        message.appendBytes(pending, 0, length);
        try {
            home.send(NodeMessageType.SPACE_OUTPUT_VALUE, message);
        } catch (RuntimeException e) {
            // The home is gone (the run is ending): this worker's own error stream is all there is.
            ownError.write(pending, 0, length);
        } finally {
            length = 0;
        }
    }
}
