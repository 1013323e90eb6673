package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrimitiveArraysTest {

    /** Arrays of every primitive type, long enough for several chunks, with a last block cut short. */
    private static List<Object> arraysOfEveryType(int length) {
        int[] ints = new int[length];
        double[] doubles = new double[length];
        long[] longs = new long[length];
        byte[] bytes = new byte[length];
        char[] chars = new char[length];
        float[] floats = new float[length];
        short[] shorts = new short[length];
        boolean[] booleans = new boolean[length];
        // Non-zeros scattered: one element in some blocks, a run across a chunk boundary, the last element.
        for (int i : new int[] {0, 7, 33, 1023, 1024, 1025, 1500, 2047, length - 1}) {
            ints[i] = i + 1;
            doubles[i] = i + 0.5;
            longs[i] = -1L - i;
            bytes[i] = (byte) (i | 1);
            chars[i] = (char) ('a' + i % 26);
            floats[i] = i - 0.25f;
            shorts[i] = (short) (i + 3);
            booleans[i] = true;
        }
        for (int i = 3000; i < 3300; i++) {
            ints[i] = i;
            longs[i] = i;
        }
        doubles[2500] = -0.0; // not a zero: its sign travels
        floats[2600] = Float.NaN;
        return List.of(ints, doubles, longs, bytes, chars, floats, shorts, booleans);
    }

    private static Object roundTrip(Object array) {
        WireBuffer out = new WireBuffer();
        PrimitiveArrays.writeWhole(out, array);
        assertFalse(out.length() > PrimitiveArrays.wholeWireSize(array), "no more than the size it announces");
        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        Object back = PrimitiveArrays.readWhole(in);
        assertEquals(0, in.remaining(), "read to its end");
        return back;
    }

    @Test
    void aWholeArrayComesBackAsItWasWhateverItsTypeAndZeros() {
        for (Object array : arraysOfEveryType(4099)) {
            Object back = roundTrip(array);
            assertEquals(array.getClass(), back.getClass());
            int length = java.lang.reflect.Array.getLength(array);
            assertEquals(length, java.lang.reflect.Array.getLength(back));
            assertEquals(-1, PrimitiveArrays.mismatch(array, back, 0, length),
                    array.getClass().getSimpleName() + " differs after the round trip");
        }
        assertArrayEquals(new long[0], (long[]) roundTrip(new long[0]));
        assertArrayEquals(new int[] {5}, (int[]) roundTrip(new int[] {5}));
        assertArrayEquals(new double[] {0, 0, 0, 1}, (double[]) roundTrip(new double[] {0, 0, 0, 1}));
    }

    @Test
    void blocksOfZerosTakeAByteEachAndTheRestTravelsWhole() {
        WireBuffer zeros = new WireBuffer();
        PrimitiveArrays.writeWhole(zeros, new long[1 << 20]); // 8 MB of zeros
        int flags = (8 << 20) / PrimitiveArrays.BLOCK_BYTES;
        assertEquals(2 + 4 + flags, zeros.length());

        int[] full = new int[1 << 16];
        java.util.Arrays.fill(full, 9);
        WireBuffer carried = new WireBuffer();
        PrimitiveArrays.writeWhole(carried, full);
        assertEquals(2 + 4 + (4 << 16) / PrimitiveArrays.BLOCK_BYTES + (4 << 16), carried.length());
    }

    @Test
    void anArrayLongerThanItsMessageCanHoldIsRefusedBeforeAnythingIsMade() {
        WireBuffer out = new WireBuffer();
        out.appendShort((short) 'J');
        out.appendInt(Integer.MAX_VALUE); // needs 268 MB of block flags; the message has none
        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        assertThrows(IllegalArgumentException.class, () -> PrimitiveArrays.readWhole(in));

        WireBuffer badFlag = new WireBuffer();
        badFlag.appendShort((short) 'I');
        badFlag.appendInt(8);
        badFlag.appendByte((byte) 7);
        assertThrows(IllegalArgumentException.class, () -> PrimitiveArrays.readWhole(ByteBuffer.wrap(badFlag.toByteArray())));

        WireBuffer shortOfElements = new WireBuffer();
        shortOfElements.appendShort((short) 'I');
        shortOfElements.appendInt(8);
        shortOfElements.appendByte((byte) 1); // one block of 8 ints announced, 4 bytes of them present
        shortOfElements.appendInt(1);
        assertThrows(IllegalArgumentException.class,
                () -> PrimitiveArrays.readWhole(ByteBuffer.wrap(shortOfElements.toByteArray())));
    }
}
