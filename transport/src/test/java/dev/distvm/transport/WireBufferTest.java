package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Puts, appends and growth of a wire buffer; the bytes are those a big-endian ByteBuffer reads. */
class WireBufferTest {
    @Test
    void appendsAreBigEndianAndReadBackByAByteBuffer() {
        WireBuffer buffer = new WireBuffer(16);
        buffer.appendLong(0x0102030405060708L);
        buffer.appendInt(-2);
        buffer.appendShort((short) 'x');
        buffer.appendByte((byte) 7);
        buffer.appendBoolean(true);
        buffer.appendDouble(1.5);
        buffer.appendFloat(-0.25f);
        buffer.appendString("héllo");

        ByteBuffer in = ByteBuffer.wrap(buffer.toByteArray());
        assertEquals(0x0102030405060708L, in.getLong());
        assertEquals(-2, in.getInt());
        assertEquals('x', in.getChar());
        assertEquals(7, in.get());
        assertEquals(1, in.get());
        assertEquals(1.5, in.getDouble());
        assertEquals(-0.25f, in.getFloat());
        byte[] utf8 = new byte[in.getInt()];
        in.get(utf8);
        assertEquals("héllo", new String(utf8, StandardCharsets.UTF_8));
        assertEquals(0, in.remaining());
    }

    @Test
    void aPutPatchesWhatWasAppendedWithoutChangingTheLength() {
        WireBuffer buffer = new WireBuffer();
        buffer.appendInt(0);
        buffer.appendLong(9);
        buffer.putInt(0, 42);

        assertEquals(12, buffer.length());
        assertEquals(42, ByteBuffer.wrap(buffer.toByteArray()).getInt());
    }

    @Test
    void growsPastItsFirstSizeAndKeepsWhatItHeld() {
        WireBuffer buffer = new WireBuffer(16);
        for (int i = 0; i < 10_000; i++) {
            buffer.appendInt(i);
        }
        ByteBuffer in = ByteBuffer.wrap(buffer.toByteArray());
        for (int i = 0; i < 10_000; i++) {
            assertEquals(i, in.getInt());
        }
    }

    @Test
    void aViewTakesBulkPutsInPlace() {
        WireBuffer buffer = new WireBuffer(8);
        buffer.appendByte((byte) 1);
        buffer.appendView(3 * Integer.BYTES).asIntBuffer().put(new int[] {10, 20, 30});
        buffer.appendByte((byte) 2);

        ByteBuffer in = ByteBuffer.wrap(buffer.toByteArray());
        assertEquals(1, in.get());
        assertEquals(10, in.getInt());
        assertEquals(20, in.getInt());
        assertEquals(30, in.getInt());
        assertEquals(2, in.get());
    }

    @Test
    void anotherBuffersBodyIsAppendedWhole() {
        WireBuffer first = new WireBuffer(8);
        first.appendInt(1);
        WireBuffer second = new WireBuffer(8);
        second.appendLong(2);
        second.appendLong(3);

        first.appendBytes(second);

        ByteBuffer in = ByteBuffer.wrap(first.toByteArray());
        assertEquals(1, in.getInt());
        assertEquals(2, in.getLong());
        assertEquals(3, in.getLong());
        assertEquals(0, in.remaining());
    }

    @Test
    void clearKeepsTheMemoryForTheNextMessage() {
        WireBuffer buffer = new WireBuffer();
        buffer.appendLong(1);
        buffer.clear();
        buffer.appendByte((byte) 5);

        assertArrayEquals(new byte[] {5}, buffer.toByteArray());
    }

    @Test
    void aNegativeIndexIsRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> new WireBuffer().putInt(-1, 0));
    }
}
