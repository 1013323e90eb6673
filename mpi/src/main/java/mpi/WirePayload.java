package mpi;

import dev.distvm.mpi.engine.Payload;
import java.nio.ByteBuffer;

/**
 * The wire form of a message's items, written on demand from where they are: a
 * {@link #HEADER} (base type code, element count), then the elements as raw big-endian
 * primitives, or for OBJECT {@code [stream length][count][stream]}. A run of one row is encoded
 * straight from the program's array; other items were gathered into {@code array} first.
 *
 * @param codec   null for a type without data
 * @param objects the serialized stream of OBJECT items, else null
 */
record WirePayload(int base, TypeCodec codec, Object array, int from, int n, byte[] objects) implements Payload {
    /** Bytes before the elements: base type code, then the element count. */
    static final int HEADER = 5;
    private static final int OBJECTS_PREFIX = 8;

    @Override
    public int size() {
        return HEADER + bodySize();
    }

    /** Bytes after the header: what {@code Comm.Pack} writes. */
    int bodySize() {
        return objects != null ? OBJECTS_PREFIX + objects.length : codec == null ? 0 : n * codec.width;
    }

    /** Bytes travel as they are: a receiver in this JVM may take them straight from the program's array. */
    @Override
    public ByteBuffer inPlace(int at) {
        int body = at - HEADER;
        if (objects == null && codec != null && codec.width == 1 && array instanceof byte[] bytes && body >= 0 && body <= n) {
            return ByteBuffer.wrap(bytes, from + body, n - body);
        }
        return null;
    }

    @Override
    public int write(int at, ByteBuffer out) {
        int start = out.position();
        if (at == 0) {
            out.put((byte) base).putInt(n);
            at = HEADER;
        }
        int body = at - HEADER;
        if (objects != null) {
            if (body == 0) {
                out.putInt(objects.length).putInt(n);
                body = OBJECTS_PREFIX;
            }
            int done = body - OBJECTS_PREFIX;
            out.put(objects, done, Math.min(out.remaining(), objects.length - done));
        } else if (codec != null) {
            // Slices hold whole elements, so the body written so far is a whole number of them.
            int done = body / codec.width;
            codec.encode(array, from + done, Math.min(n - done, out.remaining() / codec.width), out);
        }
        return out.position() - start;
    }
}
