package dev.distvm.mpi.engine;

import java.nio.ByteBuffer;

/**
 * The bytes of an outgoing message, written from wherever the sender keeps them into a device's
 * buffer a slice at a time, so that a large message needs no array of its own on the way out.
 */
public interface Payload {
    /** Room a device always leaves for a {@link #write}: enough for any header and element ahead. */
    int MIN_ROOM = 16;

    /** No bytes (acknowledgements). */
    Payload EMPTY = new Payload() {
        @Override
        public int size() {
            return 0;
        }

        @Override
        public int write(int from, ByteBuffer out) {
            return 0;
        }
    };

    /** Bytes of the payload. */
    int size();

    /**
     * Writes the bytes from {@code from} on that fit {@code out} (whole elements only, so a slice may
     * end a few bytes short of the limit) and returns how many. Given at least {@link #MIN_ROOM}
     * bytes of room, or room for all that is left, it writes something.
     */
    int write(int from, ByteBuffer out);

    /**
     * The payload's bytes from {@code from} on as they lie in the sender's memory, when they lie
     * there as they travel (a run of bytes), else null; for a receiver in this JVM, which then
     * copies them once. Only read, and only until the send returns.
     */
    default ByteBuffer inPlace(int from) {
        return null;
    }

    /** The whole payload in an array of its own (for a receiver in this JVM). */
    default byte[] toArray() {
        byte[] bytes = new byte[size()];
        ByteBuffer out = ByteBuffer.wrap(bytes);
        for (int at = 0; at < bytes.length; ) {
            at += write(at, out);
        }
        return bytes;
    }
}
