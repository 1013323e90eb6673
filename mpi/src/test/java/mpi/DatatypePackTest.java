package mpi;

import static mpi.DatatypeConstructorTest.committed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Wire form round trips, Pack/Unpack, multi-dimensional buffers and buffer checks. */
class DatatypePackTest {

    static Stream<Arguments> everyBaseType() {
        return Stream.of(
                Arguments.of(MPI.BYTE, new byte[] {1, -2, 3, Byte.MIN_VALUE, Byte.MAX_VALUE, 6, 7}),
                Arguments.of(MPI.PACKED, new byte[] {9, 8, 7, 6, 5, 4, 3}),
                Arguments.of(MPI.CHAR, new char[] {'a', 'é', '\u20ac', Character.MAX_VALUE, 'e', 'f', 'g'}),
                Arguments.of(MPI.SHORT, new short[] {1, -2, Short.MIN_VALUE, Short.MAX_VALUE, 5, 6, 7}),
                Arguments.of(MPI.BOOLEAN, new boolean[] {true, false, true, true, false, true, false}),
                Arguments.of(MPI.INT, new int[] {1, -2, Integer.MIN_VALUE, Integer.MAX_VALUE, 5, 6, 7}),
                Arguments.of(MPI.LONG, new long[] {1, -2, Long.MIN_VALUE, Long.MAX_VALUE, 5, 6, 7}),
                Arguments.of(MPI.FLOAT, new float[] {1.5f, -2, Float.NaN, Float.MAX_VALUE, Float.MIN_VALUE, 6, -0f}),
                Arguments.of(MPI.DOUBLE, new double[] {1.5, -2, Double.NaN, Double.MAX_VALUE, Double.MIN_VALUE, 6, -0d}),
                Arguments.of(MPI.OBJECT, new Object[] {"a", null, 3, 4L, "e", new int[] {6}, 'g'}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyBaseType")
    void packUnpackRoundTripWithOffsets(Datatype type, Object source) throws MPIException {
        byte[] message = type.layout.pack(source, 2, 4);
        Object target = Array.newInstance(source.getClass().getComponentType(), 7);
        assertEquals(4, type.layout.unpack(message, target, 1, 4));
        for (int i = 0; i < 7; i++) {
            Object expected = i >= 1 && i < 5 ? Array.get(source, i + 1) : Array.get(Array.newInstance(
                    source.getClass().getComponentType(), 1), 0);
            assertTrue(Objects.deepEquals(expected, Array.get(target, i)), type + " element " + i);
        }
        assertEquals(4, type.layout.messageElements(message));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyBaseType")
    void packIntoUnpackFromRoundTrip(Datatype type, Object source) throws MPIException {
        byte[] packed = new byte[512];
        int end = type.layout.packInto(source, 1, 5, packed, 3);
        if (type != MPI.OBJECT) {
            assertEquals(3 + type.layout.packSize(5), end, "packSize is exact for primitives");
        }
        Object target = Array.newInstance(source.getClass().getComponentType(), 5);
        assertEquals(end, type.layout.unpackFrom(packed, 3, target, 0, 5));
        for (int i = 0; i < 5; i++) {
            assertTrue(Objects.deepEquals(Array.get(source, i + 1), Array.get(target, i)), type + " element " + i);
        }
    }

    @Test
    void wireFormIsBigEndianWithATypeAndCountHeader() throws MPIException {
        byte[] message = MPI.INT.layout.pack(new int[] {0x01020304, -1}, 0, 2);
        assertArrayEquals(new byte[] {BaseType.INT, 0, 0, 0, 2, 1, 2, 3, 4, -1, -1, -1, -1}, message);
        assertArrayEquals(new byte[] {BaseType.BOOLEAN, 0, 0, 0, 2, 1, 0},
                MPI.BOOLEAN.layout.pack(new boolean[] {true, false}, 0, 2));
        byte[] packed = new byte[8];
        assertEquals(8, MPI.DOUBLE.layout.packInto(new double[] {1.0}, 0, 1, packed, 0));
        assertArrayEquals(new byte[] {0x3f, (byte) 0xf0, 0, 0, 0, 0, 0, 0}, packed, "Pack writes raw elements");
    }

    @Test
    void receivingMoreThanTheBufferTakesIsTruncation() throws MPIException {
        byte[] message = MPI.INT.layout.pack(new int[] {1, 2, 3, 4, 5}, 0, 5);
        int[] target = new int[10];
        MPIException e = assertThrows(MPIException.class, () -> MPI.INT.layout.unpack(message, target, 0, 4));
        assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        assertTrue(e.getMessage().contains("5") && e.getMessage().contains("4"), e.getMessage());
        assertArrayEquals(new int[10], target, "nothing is written on truncation");

        Datatype three = committed(Datatype.Contiguous(3, MPI.INT));
        MPIException items = assertThrows(MPIException.class, () -> three.layout.unpack(message, target, 0, 1));
        assertEquals(MPI.ERR_TRUNCATE, items.getErrorClass());
    }

    @Test
    void objectMessagesAnnouncingNegativeCountsOrLengthsAreDamagedNotCrashes() throws MPIException {
        byte[] negativeCount = {BaseType.OBJECT, (byte) 0xf6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        MPIException damaged = assertThrows(MPIException.class,
                () -> MPI.OBJECT.layout.unpack(negativeCount, new Object[4], 0, 4));
        assertEquals(MPI.ERR_INTERN, damaged.getErrorClass());
        byte[] headerOnly = {BaseType.OBJECT, 0, 0, 0, 1};
        assertThrows(MPIException.class, () -> MPI.OBJECT.layout.unpack(headerOnly, new Object[4], 0, 4));

        byte[] packed = new byte[256];
        int end = MPI.OBJECT.layout.packInto(new Object[] {7}, 0, 1, packed, 0);
        packed[0] = (byte) 0x80; // the unit's stream length, now negative
        MPIException truncated = assertThrows(MPIException.class,
                () -> MPI.OBJECT.layout.unpackFrom(Arrays.copyOf(packed, end), 0, new Object[1], 0, 1));
        assertEquals(MPI.ERR_TRUNCATE, truncated.getErrorClass());
    }

    @Test
    void receivingFewerFillsThePrefixIncludingPartOfAnItem() throws MPIException {
        Datatype column = committed(Datatype.Vector(2, 1, 3, MPI.INT));
        int[] target = new int[12];
        int written = column.layout.unpack(MPI.INT.layout.pack(new int[] {7, 8, 9}, 0, 3), target, 0, 3);
        assertEquals(3, written, "Get_elements counts base elements");
        assertArrayEquals(new int[] {7, 0, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0}, target);
    }

    @Test
    void derivedTypesGatherAndScatterThroughTheirTypeMap() throws MPIException {
        double[] matrix = new double[4 * 3];
        Arrays.setAll(matrix, i -> i);
        Datatype column = committed(Datatype.Vector(4, 1, 3, MPI.DOUBLE));
        byte[] message = column.layout.pack(matrix, 2, 1);

        double[] contiguous = new double[4];
        MPI.DOUBLE.layout.unpack(message, contiguous, 0, 4);
        assertArrayEquals(new double[] {2, 5, 8, 11}, contiguous);

        double[] other = new double[12];
        column.layout.unpack(message, other, 0, 1);
        assertArrayEquals(new double[] {2, 0, 0, 5, 0, 0, 8, 0, 0, 11, 0, 0}, other);
    }

    @Test
    void structWithMarkersPacksOnlyData() throws MPIException {
        Datatype t = committed(Datatype.Struct(new int[] {1, 2, 1}, new int[] {-1, 1, 5},
                new Datatype[] {MPI.LB, MPI.LONG, MPI.UB}));
        long[] source = new long[14];
        Arrays.setAll(source, i -> 100 + i);
        long[] received = new long[4];
        MPI.LONG.layout.unpack(t.layout.pack(source, 1, 2), received, 0, 4);
        assertArrayEquals(new long[] {102, 103, 108, 109}, received);
    }

    @Test
    void packIntoAndUnpackFromASequenceOfItems() throws MPIException {
        Datatype column = committed(Datatype.Vector(2, 1, 2, MPI.INT));
        int size = MPI.INT.layout.packSize(3) + MPI.DOUBLE.layout.packSize(2) + column.layout.packSize(2) + MPI.CHAR.layout.packSize(1);
        assertEquals(12 + 16 + 16 + 2, size);
        byte[] packed = new byte[size];
        int position = 0;
        position = MPI.INT.layout.packInto(new int[] {1, 2, 3}, 0, 3, packed, position);
        assertEquals(12, position);
        position = MPI.DOUBLE.layout.packInto(new double[] {0, 2.5, -1}, 1, 2, packed, position);
        assertEquals(28, position);
        // Items are one extent (3) apart: elements 0, 2 and 3, 5.
        position = column.layout.packInto(new int[] {10, 0, 11, 12, 0, 13}, 0, 2, packed, position);
        assertEquals(44, position);
        position = MPI.CHAR.layout.packInto(new char[] {'z'}, 0, 1, packed, position);
        assertEquals(size, position);

        int[] ints = new int[3];
        double[] doubles = new double[2];
        int[] columnInts = new int[4];
        char[] chars = new char[1];
        position = MPI.INT.layout.unpackFrom(packed, 0, ints, 0, 3);
        position = MPI.DOUBLE.layout.unpackFrom(packed, position, doubles, 0, 2);
        // Primitives are raw, so two items of the column may be read as four plain ints.
        position = MPI.INT.layout.unpackFrom(packed, position, columnInts, 0, 4);
        position = MPI.CHAR.layout.unpackFrom(packed, position, chars, 0, 1);
        assertEquals(size, position);
        assertArrayEquals(new int[] {1, 2, 3}, ints);
        assertArrayEquals(new double[] {2.5, -1}, doubles);
        assertArrayEquals(new int[] {10, 11, 12, 13}, columnInts);
        assertArrayEquals(new char[] {'z'}, chars);
    }

    @Test
    void packErrors() throws MPIException {
        byte[] small = new byte[10];
        MPIException full = assertThrows(MPIException.class, () -> MPI.INT.layout.packInto(new int[3], 0, 3, small, 0));
        assertEquals(MPI.ERR_TRUNCATE, full.getErrorClass());
        assertTrue(full.getMessage().contains("12 bytes"), full.getMessage());
        MPIException past = assertThrows(MPIException.class, () -> MPI.INT.layout.unpackFrom(small, 4, new int[3], 0, 3));
        assertEquals(MPI.ERR_TRUNCATE, past.getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> MPI.INT.layout.packInto(new int[3], 0, 1, small, 11)).getErrorClass());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> MPI.INT.layout.packSize(-1)).getErrorClass());
    }

    @Test
    void packedMessagesInteroperateWithTypedOnes() throws MPIException {
        // Pack, send as PACKED, receive as PACKED, Unpack: the usual mpiJava idiom.
        byte[] packed = new byte[MPI.INT.layout.packSize(2) + MPI.LONG.layout.packSize(1)];
        int position = MPI.INT.layout.packInto(new int[] {4, 5}, 0, 2, packed, 0);
        position = MPI.LONG.layout.packInto(new long[] {6}, 0, 1, packed, position);
        byte[] message = MPI.PACKED.layout.pack(packed, 0, position);
        byte[] received = new byte[64];
        assertEquals(position, MPI.PACKED.layout.unpack(message, received, 0, 64));
        int[] ints = new int[2];
        long[] longs = new long[1];
        MPI.LONG.layout.unpackFrom(received, MPI.INT.layout.unpackFrom(received, 0, ints, 0, 2), longs, 0, 1);
        assertArrayEquals(new int[] {4, 5}, ints);
        assertArrayEquals(new long[] {6}, longs);

        // A typed message received as PACKED, then unpacked; and a PACKED message received typed.
        byte[] asPacked = new byte[12];
        assertEquals(12, MPI.PACKED.layout.unpack(MPI.INT.layout.pack(new int[] {7, 8, 9}, 0, 3), asPacked, 0, 12));
        int[] typed = new int[3];
        MPI.INT.layout.unpackFrom(asPacked, 0, typed, 0, 3);
        assertArrayEquals(new int[] {7, 8, 9}, typed);
        int[] direct = new int[3];
        assertEquals(3, MPI.INT.layout.unpack(MPI.PACKED.layout.pack(asPacked, 0, 12), direct, 0, 3));
        assertArrayEquals(new int[] {7, 8, 9}, direct);
    }

    @Test
    void mismatchedBaseTypesAreRefused() throws MPIException {
        byte[] ints = MPI.INT.layout.pack(new int[] {1, 2}, 0, 2);
        MPIException e = assertThrows(MPIException.class, () -> MPI.DOUBLE.layout.unpack(ints, new double[2], 0, 2));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        assertTrue(e.getMessage().contains("MPI.INT") && e.getMessage().contains("MPI.DOUBLE"), e.getMessage());
        assertEquals(0, MPI.DOUBLE.layout.unpack(MPI.INT.layout.pack(new int[0], 0, 0), new double[0], 0, 0),
                "an empty message matches any type");
    }

    @Test
    void multiDimensionalIntArrayIsItsRowMajorFlattening() throws MPIException {
        int[][] matrix = new int[3][4];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) {
                matrix[r][c] = 10 * r + c;
            }
        }
        int[] flat = new int[7];
        MPI.INT.layout.unpack(MPI.INT.layout.pack(matrix, 2, 7), flat, 0, 7);
        assertArrayEquals(new int[] {2, 3, 10, 11, 12, 13, 20}, flat, "offset 2 crosses rows");

        int[][] target = new int[3][4];
        MPI.INT.layout.unpack(MPI.INT.layout.pack(new int[] {-1, -2, -3, -4, -5}, 0, 5), target, 3, 5);
        assertArrayEquals(new int[][] {{0, 0, 0, -1}, {-2, -3, -4, -5}, {0, 0, 0, 0}}, target);

        Datatype column = committed(Datatype.Vector(3, 1, 4, MPI.INT));
        int[] second = new int[3];
        MPI.INT.layout.unpack(column.layout.pack(matrix, 1, 1), second, 0, 3);
        assertArrayEquals(new int[] {1, 11, 21}, second, "a Vector walks the flattened matrix");
        int[][] into = new int[3][4];
        column.layout.unpack(MPI.INT.layout.pack(new int[] {5, 6, 7}, 0, 3), into, 3, 1);
        assertArrayEquals(new int[][] {{0, 0, 0, 5}, {0, 0, 0, 6}, {0, 0, 0, 7}}, into);
    }

    @Test
    void threeDimensionalDoubleArrayWithOffsets() throws MPIException {
        double[][][] cube = {{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}}};
        double[] flat = new double[5];
        MPI.DOUBLE.layout.unpack(MPI.DOUBLE.layout.pack(cube, 3, 5), flat, 0, 5);
        assertArrayEquals(new double[] {3, 4, 5, 6, 7}, flat);

        double[][][] target = new double[2][2][2];
        MPI.DOUBLE.layout.unpack(MPI.DOUBLE.layout.pack(new double[] {9, 8, 7}, 0, 3), target, 1, 3);
        assertArrayEquals(new double[][][] {{{0, 9}, {8, 7}}, {{0, 0}, {0, 0}}}, target);

        byte[] packed = new byte[MPI.DOUBLE.layout.packSize(8)];
        MPI.DOUBLE.layout.packInto(cube, 0, 8, packed, 0);
        double[][][] copy = new double[2][2][2];
        MPI.DOUBLE.layout.unpackFrom(packed, 0, copy, 0, 8);
        assertArrayEquals(cube, copy);
    }

    @Test
    void raggedRowsAndEmptyRows() throws MPIException {
        int[][] ragged = {{1, 2}, {3}, {}, {4, 5, 6}};
        int[] flat = new int[4];
        MPI.INT.layout.unpack(MPI.INT.layout.pack(ragged, 1, 4), flat, 0, 4);
        assertArrayEquals(new int[] {2, 3, 4, 5}, flat);
        MPIException beyond = assertThrows(MPIException.class, () -> MPI.INT.layout.check(ragged, 3, 4));
        assertEquals(MPI.ERR_BUFFER, beyond.getErrorClass());
        assertTrue(beyond.getMessage().contains("6 elements"), beyond.getMessage());
        MPIException nullRow = assertThrows(MPIException.class, () -> MPI.INT.layout.check(new int[][] {{1}, null}, 0, 1));
        assertEquals(MPI.ERR_BUFFER, nullRow.getErrorClass());
        assertTrue(nullRow.getMessage().contains("buffer[1] is null"), nullRow.getMessage());
    }

    @Test
    void checkNamesWhatWasPassedAndWhatWasExpected() throws MPIException {
        MPIException wrongType = assertThrows(MPIException.class, () -> MPI.INT.layout.check(new double[4], 0, 1));
        assertEquals(MPI.ERR_TYPE, wrongType.getErrorClass());
        assertTrue(wrongType.getMessage().contains("double[]") && wrongType.getMessage().contains("int[]"),
                wrongType.getMessage());
        MPIException wrongLeaf = assertThrows(MPIException.class, () -> MPI.DOUBLE.layout.check(new int[2][2], 0, 1));
        assertEquals(MPI.ERR_TYPE, wrongLeaf.getErrorClass());
        assertTrue(wrongLeaf.getMessage().contains("int[][]"), wrongLeaf.getMessage());

        MPIException range = assertThrows(MPIException.class, () -> MPI.INT.layout.check(new int[10], 8, 3));
        assertEquals(MPI.ERR_BUFFER, range.getErrorClass());
        assertTrue(range.getMessage().contains("offset 8") && range.getMessage().contains("count 3")
                && range.getMessage().contains("10 elements"), range.getMessage());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> MPI.INT.layout.check(new int[10], -1, 1)).getErrorClass());
        Datatype column = committed(Datatype.Vector(3, 1, 4, MPI.INT));
        MPIException derived = assertThrows(MPIException.class, () -> column.layout.check(new int[12], 4, 1));
        assertTrue(derived.getMessage().contains("4 to 12") && derived.getMessage().contains("12 elements")
                && derived.getMessage().contains("Vector(3, 1, 4, MPI.INT)"), derived.getMessage());
        column.layout.check(new int[12], 3, 1);

        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> MPI.INT.layout.check(new int[1], 0, -1)).getErrorClass());
        MPIException nullBuffer = assertThrows(MPIException.class, () -> MPI.INT.layout.check(null, 0, 1));
        assertEquals(MPI.ERR_BUFFER, nullBuffer.getErrorClass());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> MPI.INT.layout.check("text", 0, 1)).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> MPI.OBJECT.layout.check(new int[1], 0, 1)).getErrorClass());
        MPI.INT.layout.check(null, 0, 0);
    }

    @Test
    void allocateHoldsCountItemsFromOffsetZero() throws MPIException {
        Datatype column = committed(Datatype.Vector(3, 1, 4, MPI.INT));
        Object buffer = column.layout.allocate(2);
        assertInstanceOf(int[].class, buffer);
        assertEquals(18, Array.getLength(buffer), "second item starts at extent 9 and reaches 9 + 8");
        column.layout.check(buffer, 0, 2);
        assertInstanceOf(byte[].class, MPI.PACKED.layout.allocate(3));
        assertInstanceOf(Object[].class, MPI.OBJECT.layout.allocate(3));
        assertEquals(6, Array.getLength(MPI.DOUBLE2.layout.allocate(3)));
        assertEquals(0, Array.getLength(MPI.INT.layout.allocate(0)));
    }

    @Test
    void largeArraysRoundTrip() throws MPIException {
        double[] big = new Random(1).doubles(1 << 17).toArray();
        double[] back = new double[big.length];
        assertEquals(big.length, MPI.DOUBLE.layout.unpack(MPI.DOUBLE.layout.pack(big, 0, big.length), back, 0, big.length));
        assertArrayEquals(big, back);

        double[][] rows = new double[64][2048];
        for (double[] row : rows) {
            Arrays.setAll(row, i -> i * 0.5);
        }
        double[][] rowsBack = new double[64][2048];
        MPI.DOUBLE.layout.unpack(MPI.DOUBLE.layout.pack(rows, 0, 64 * 2048), rowsBack, 0, 64 * 2048);
        assertArrayEquals(rows, rowsBack);
    }
}
