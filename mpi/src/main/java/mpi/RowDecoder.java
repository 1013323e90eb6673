package mpi;

import dev.distvm.mpi.engine.ReceiveBuffer;
import java.nio.ByteBuffer;

/**
 * Decodes a message's elements into one run of one row of a receive buffer as its bytes arrive,
 * which {@link TypeLayout#decoder} has checked the message fits.
 */
final class RowDecoder implements ReceiveBuffer.Decoder {
    private final TypeCodec codec;
    private final Object row;
    private final int at;
    private final int n;
    private boolean headerSkipped;
    private int done;

    RowDecoder(TypeCodec codec, Object row, int at, int n) {
        this.codec = codec;
        this.row = row;
        this.at = at;
        this.n = n;
    }

    /** Elements in the message (the receive's count for its status). */
    public int elements() {
        return n;
    }

    @Override
    public void decode(ByteBuffer in) {
        if (!headerSkipped) {
            if (in.remaining() < WirePayload.HEADER) {
                return;
            }
            in.position(in.position() + WirePayload.HEADER);
            headerSkipped = true;
        }
        int k = Math.min(n - done, in.remaining() / codec.width);
        codec.decode(in, row, at + done, k);
        done += k;
    }
}
