package dev.distvm.mpi.engine;

import java.nio.ByteBuffer;

/**
 * The buffer of a posted receive, into which the payload of the message it matches may be decoded
 * straight from a device's read buffer as it arrives, so that the message needs no array of its own.
 */
public interface ReceiveBuffer {
    /** Payload bytes a device has read when it calls {@link #open}: room for the header the layer above puts first. */
    int PEEK = 16;

    /**
     * A decoder of a matched message's payload of {@code length} bytes into this buffer, or null when
     * the payload must arrive whole first (the receive then gets it in its {@link Message}).
     * {@code first} holds the payload's first {@code min(length, PEEK)} bytes from its position,
     * which this leaves where it is.
     */
    Decoder open(int length, ByteBuffer first);

    /** Decodes one payload as its bytes arrive. */
    interface Decoder {
        /**
         * Decodes the payload's next bytes from {@code in}, which holds nothing past the payload's end:
         * all of them but the start of an element that has not fully arrived.
         */
        void decode(ByteBuffer in);
    }
}
