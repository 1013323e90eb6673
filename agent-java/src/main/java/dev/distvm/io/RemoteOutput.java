package dev.distvm.io;

import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.transport.WireBuffer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/** System.out/err of this worker, sent to the home in order (one connection, one sender). */
final class RemoteOutput extends OutputStream {
    private final PrintStream ownError = new PrintStream(new FileOutputStream(FileDescriptor.err), true);
    private final HomeLink home;
    private final byte stream;

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
        WireBuffer message = new WireBuffer(len + 1);
        message.appendByte(stream);
        message.appendBytes(b, off, len);
        try {
            home.send(NodeMessageType.SPACE_OUTPUT_VALUE, message);
        } catch (RuntimeException e) {
            // The home is gone (the run is ending): this worker's own error stream is all there is.
            ownError.write(b, off, len);
        }
    }
}
