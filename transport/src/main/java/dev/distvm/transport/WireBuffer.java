package dev.distvm.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A message body as raw bytes, in Agrona's {@code MutableDirectBuffer} style: big-endian puts at
 * an index or appended at the end, no checked exceptions, growing as needed, and {@link #clear()}
 * to reuse it. Room for the frame header (length prefix and envelope fields) is reserved in front
 * of the body, so {@link Endpoint#send(String, int, WireBuffer)} writes the header there and hands
 * header and body to the socket as one array, without copying the body.
 *
 * <pre>{@code
 * WireBuffer body = new WireBuffer();
 * body.appendLong(0);                 // a count, known only at the end
 * body.appendString("hello");
 * body.putLong(0, 1);                 // patched in place
 * endpoint.send(peer, TYPE, body);    // received as Inbound.body(): the bytes after the header
 * }</pre>
 *
 * <p>Indexes are body indexes: 0 is the first byte after the reserved header. An append writes at
 * {@link #length()} and counts; a put writes at an index (to patch what was appended). Not thread-safe;
 * a buffer must not be changed or reused until the send that carries it has returned.
 */
public final class WireBuffer {
    /** The most an envelope's fields and the 4-byte length prefix can take in front of the body. */
    static final int HEADER_ROOM = 64;
    /** The longest array a JVM reliably allocates (HotSpot keeps a few words of Integer.MAX_VALUE for itself). */
    static final int MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;
    private static final int INITIAL_BODY_BYTES = 256;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

    private byte[] array;
    /** Body bytes written, which is also where the next append goes. */
    private int length;

    public WireBuffer() {
        this(INITIAL_BODY_BYTES);
    }

    public WireBuffer(int initialBodyBytes) {
        array = new byte[HEADER_ROOM + Math.max(initialBodyBytes, 16)];
    }

    /** The body's length: the bytes written so far. */
    public int length() {
        return length;
    }

    /** Empties the buffer for the next message, keeping its memory. */
    public void clear() {
        length = 0;
    }

    public void putLong(int index, long value) {
        int at = at(index, 8); // may grow the array: before reading the field
        LONG.set(array, at, value);
    }

    public void putInt(int index, int value) {
        int at = at(index, 4);
        INT.set(array, at, value);
    }

    public void putShort(int index, short value) {
        int at = at(index, 2);
        SHORT.set(array, at, value);
    }

    public void putByte(int index, byte value) {
        int at = at(index, 1);
        array[at] = value;
    }

    public void putBytes(int index, byte[] source, int offset, int count) {
        int at = at(index, count);
        System.arraycopy(source, offset, array, at, count);
    }

    public void appendLong(long value) {
        putLong(claim(8), value);
    }

    public void appendInt(int value) {
        putInt(claim(4), value);
    }

    public void appendShort(short value) {
        putShort(claim(2), value);
    }

    public void appendByte(byte value) {
        putByte(claim(1), value);
    }

    public void appendBoolean(boolean value) {
        appendByte((byte) (value ? 1 : 0));
    }

    public void appendDouble(double value) {
        appendLong(Double.doubleToRawLongBits(value));
    }

    public void appendFloat(float value) {
        appendInt(Float.floatToRawIntBits(value));
    }

    public void appendBytes(byte[] source) {
        appendBytes(source, 0, source.length);
    }

    public void appendBytes(byte[] source, int offset, int count) {
        putBytes(claim(count), source, offset, count);
    }

    /** Appends the body of {@code source}. */
    public void appendBytes(WireBuffer source) {
        appendBytes(source.array, HEADER_ROOM, source.length);
    }

    /**
     * {@code [int length][UTF-8 bytes]}, of any length (unlike {@code DataOutput.writeUTF}); a
     * string holding a surrogate without its pair, which UTF-8 cannot carry (the encoder puts a
     * {@code ?} in its place, and a program's string would arrive changed), as
     * {@code [int -chars][UTF-16 chars]}.
     */
    public void appendString(String value) {
        if (hasUnpairedSurrogate(value)) {
            appendInt(-value.length());
            appendView(2 * value.length()).asCharBuffer().put(value);
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        appendInt(utf8.length);
        appendBytes(utf8);
    }

    private static boolean hasUnpairedSurrogate(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The next {@code count} bytes of the body as a big-endian view, for bulk puts (a primitive
     * array through {@code asIntBuffer().put(...)}) straight into the buffer; they count as written.
     */
    public ByteBuffer appendView(int count) {
        int start = at(claim(count), count);
        return ByteBuffer.wrap(array, start, count).slice();
    }

    /**
     * Makes room for {@code count} more bytes at once: a caller that knows a message's size ahead
     * grows the buffer once, where appending piece by piece would copy a large body at each doubling.
     */
    public void reserve(int count) {
        at(length, count);
    }

    /** The body's bytes, copied: for tests and for callers that must keep them past a reuse. */
    public byte[] toByteArray() {
        return Arrays.copyOfRange(array, HEADER_ROOM, HEADER_ROOM + length);
    }

    /** The array the header is written into, in front of the body; for the endpoint's send path only. */
    byte[] array() {
        return array;
    }

    /** Counts {@code count} more bytes as written; returns the body index where they go. */
    private int claim(int count) {
        int index = length;
        length += count;
        return index;
    }

    /** The array index of body index {@code index}, grown so that {@code count} bytes fit there. */
    private int at(int index, int count) {
        if (index < 0 || count < 0) {
            throw new IndexOutOfBoundsException("body index " + index + ", " + count + " bytes");
        }
        long end = (long) HEADER_ROOM + index + count;
        if (end > MAX_ARRAY_BYTES) {
            throw new TransportException("a message of " + (end - HEADER_ROOM) + " bytes does not fit one Java array"
                    + " (at most " + (MAX_ARRAY_BYTES - HEADER_ROOM) + " bytes)");
        }
        if (end > array.length) {
            array = Arrays.copyOf(array, (int) Math.min(MAX_ARRAY_BYTES, Math.max(end, 2L * array.length - HEADER_ROOM)));
        }
        return HEADER_ROOM + index;
    }
}
