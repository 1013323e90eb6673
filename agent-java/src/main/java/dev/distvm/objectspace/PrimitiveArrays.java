package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Bulk operations on arrays of any primitive type, so twins of arrays compare and travel in bulk. */
final class PrimitiveArrays {
    private static final ByteOrder ELEMENT_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** The bytes of elements a flag of {@link #writeWhole} stands for. */
    static final int BLOCK_BYTES = 32;
    /** Elements compared with zero at once: a chunk of zeros stays behind (a multiple of every block's count). */
    private static final int ZERO_ELEMENTS = 1 << ArrayWrites.CHUNK_SHIFT;
    /** Per array class, an array of {@link #ZERO_ELEMENTS} zeros to compare chunks with. */
    private static final ClassValue<Object> ZEROS = new ClassValue<>() {
        @Override
        protected Object computeValue(Class<?> arrayClass) {
            return java.lang.reflect.Array.newInstance(arrayClass.getComponentType(), ZERO_ELEMENTS);
        }
    };

    private PrimitiveArrays() {}

    static boolean isPrimitiveArray(Object holder) {
        Class<?> type = holder.getClass();
        return type.isArray() && type.getComponentType().isPrimitive();
    }

    /** Whether {@code a} and {@code b} hold the same values in [from, to), as == on elements says (floats by bits). */
    static boolean rangeEquals(Object a, Object b, int from, int to) {
        return mismatch(a, b, from, to) < 0;
    }

    /** The first index in [from, to) where {@code a} and {@code b} differ, or -1. */
    static int mismatch(Object a, Object b, int from, int to) {
        int relative = mismatch(a, from, b, from, to - from);
        return relative < 0 ? -1 : from + relative;
    }

    /** The first i in [0, count) where a[aFrom + i] and b[bFrom + i] differ (floating-point values by their bits, every NaN as one), or -1. */
    private static int mismatch(Object a, int aFrom, Object b, int bFrom, int count) {
        if (a instanceof int[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (int[]) b, bFrom, bFrom + count);
        } else if (a instanceof double[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (double[]) b, bFrom, bFrom + count);
        } else if (a instanceof long[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (long[]) b, bFrom, bFrom + count);
        } else if (a instanceof byte[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (byte[]) b, bFrom, bFrom + count);
        } else if (a instanceof char[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (char[]) b, bFrom, bFrom + count);
        } else if (a instanceof float[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (float[]) b, bFrom, bFrom + count);
        } else if (a instanceof short[] x) {
            return Arrays.mismatch(x, aFrom, aFrom + count, (short[]) b, bFrom, bFrom + count);
        } else {
            return Arrays.mismatch((boolean[]) a, aFrom, aFrom + count, (boolean[]) b, bFrom, bFrom + count);
        }
    }

    static Object copyOfRange(Object array, int from, int to) {
        Object copy = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), to - from);
        System.arraycopy(array, from, copy, 0, to - from);
        return copy;
    }

    /**
     * [type char][length][raw elements]. The elements are little-endian, the order of the machines
     * the JDK runs on: the bulk puts and gets below are then plain copies, where big-endian elements
     * cost a byte swap each way.
     */
    static void write(WireBuffer out, Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        out.appendShort((short) descriptorOf(array.getClass().getComponentType()));
        out.appendInt(length);
        put(out, array, 0, length);
    }

    static Object read(ByteBuffer in) {
        char descriptor = in.getChar();
        int length = in.getInt();
        if (length < 0 || (long) length * sizeOf(descriptor) > in.remaining()) {
            throw new IllegalArgumentException("object-space message: an array of " + length + " does not fit the message");
        }
        Object array = newArray(descriptor, length);
        get(in, array, 0, length);
        return array;
    }

    /**
     * A whole array as a holder's state: [type char][length][a flag byte per block of
     * {@value #BLOCK_BYTES} bytes of elements, 1 if the block travels][the elements of the blocks
     * that travel]. Blocks of zeros stay behind, as a new array holds them already: result arrays
     * that threads are about to fill cost a byte per block instead of their size (the writer leaves
     * out the blocks of chunks of {@value #ZERO_ELEMENTS} elements that are all zero). Blocks are small
     * so that what a reader makes stays within what its input justifies (at most
     * {@value #BLOCK_BYTES} bytes of array per byte of message, twice over with the holder).
     */
    static void writeWhole(WireBuffer out, Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        char descriptor = descriptorOf(array.getClass().getComponentType());
        int perBlock = BLOCK_BYTES / sizeOf(descriptor);
        byte[] carried = new byte[blocks(length, perBlock)];
        for (int chunk = 0; chunk < length; chunk += ZERO_ELEMENTS) {
            int chunkEnd = Math.min(length, chunk + ZERO_ELEMENTS);
            // One compare per chunk: the zeros worth leaving behind come in long runs (arrays not
            // written yet), and a compare per block cost more than it saved on arrays of data.
            if (!isZero(array, chunk, chunkEnd)) {
                Arrays.fill(carried, chunk / perBlock, blocks(chunkEnd, perBlock), (byte) 1);
            }
        }
        out.appendShort((short) descriptor);
        out.appendInt(length);
        out.appendBytes(carried);
        forEachRun(carried, perBlock, length, (from, to) -> put(out, array, from, to - from));
    }

    /**
     * A flag per chunk ({@link ArrayWrites}), 1 where {@code array} holds anything but
     * zeros: what a worker sent the array on demand lacks (its new array holds the zeros already).
     */
    static byte[] nonZeroChunks(Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        byte[] flags = new byte[blocks(length, ZERO_ELEMENTS)];
        for (int c = 0; c < flags.length; c++) {
            int from = c * ZERO_ELEMENTS;
            flags[c] = (byte) (isZero(array, from, Math.min(length, from + ZERO_ELEMENTS)) ? 0 : 1);
        }
        return flags;
    }

    /** Sets every element of {@code array} to zero. */
    static void clear(Object array) {
        Object zeros = ZEROS.get(array.getClass());
        int length = java.lang.reflect.Array.getLength(array);
        for (int from = 0; from < length; from += ZERO_ELEMENTS) {
            System.arraycopy(zeros, 0, array, from, Math.min(ZERO_ELEMENTS, length - from));
        }
    }

    /** The bytes of an array of {@code length} such elements. */
    static long bytesOf(Class<?> component, int length) {
        return (long) length * sizeOf(component);
    }

    /** The most bytes {@link #writeWhole} takes for {@code array}. */
    static long wholeWireSize(Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        int size = sizeOf(array.getClass().getComponentType());
        return Short.BYTES + Integer.BYTES + blocks(length, BLOCK_BYTES / size) + (long) length * size;
    }

    static Object readWhole(ByteBuffer in) {
        char descriptor = in.getChar();
        int length = in.getInt();
        int perBlock = BLOCK_BYTES / sizeOf(descriptor);
        if (length < 0 || blocks(length, perBlock) > in.remaining()) {
            throw new IllegalArgumentException("object-space message: an array of " + length + " does not fit the message");
        }
        byte[] carried = new byte[blocks(length, perBlock)];
        in.get(carried);
        for (byte flag : carried) {
            if (flag != 0 && flag != 1) {
                throw new IllegalArgumentException("object-space message: an array block flagged " + flag);
            }
        }
        Object array = newArray(descriptor, length);
        forEachRun(carried, perBlock, length, (from, to) -> get(in, array, from, to - from));
        return array;
    }

    /** The fewest bytes of message the whole state of such an array takes: its block flags (see {@link #readWhole}). */
    static long leastWholeBytes(Class<?> component, int length) {
        return blocks(length, BLOCK_BYTES / sizeOf(component));
    }

    private static int blocks(int length, int perBlock) {
        return (int) (((long) length + perBlock - 1) / perBlock);
    }

    /** Calls {@code run} with each [from, to) of elements that consecutive carried blocks cover. */
    private static void forEachRun(byte[] carried, int perBlock, int length, RunConsumer run) {
        for (int block = 0; block < carried.length; block++) {
            if (carried[block] != 0) {
                int first = block;
                while (block + 1 < carried.length && carried[block + 1] != 0) {
                    block++;
                }
                run.accept(first * perBlock, (int) Math.min(length, (long) (block + 1) * perBlock));
            }
        }
    }

    private interface RunConsumer {
        void accept(int from, int to);
    }

    /** Whether [from, to) of {@code array}, at most {@link #ZERO_ELEMENTS} elements, holds zeros only (-0.0 and NaN are not zeros). */
    private static boolean isZero(Object array, int from, int to) {
        return mismatch(array, from, ZEROS.get(array.getClass()), 0, to - from) < 0;
    }

    /** Elements [from, from + count) of {@code array}, straight into the message. */
    private static void put(WireBuffer out, Object array, int from, int count) {
        ByteBuffer bytes = out.appendView(count * sizeOf(array.getClass().getComponentType())).order(ELEMENT_ORDER);
        if (array instanceof int[] x) {
            bytes.asIntBuffer().put(x, from, count);
        } else if (array instanceof double[] x) {
            bytes.asDoubleBuffer().put(x, from, count);
        } else if (array instanceof long[] x) {
            bytes.asLongBuffer().put(x, from, count);
        } else if (array instanceof byte[] x) {
            bytes.put(x, from, count);
        } else if (array instanceof char[] x) {
            bytes.asCharBuffer().put(x, from, count);
        } else if (array instanceof float[] x) {
            bytes.asFloatBuffer().put(x, from, count);
        } else if (array instanceof short[] x) {
            bytes.asShortBuffer().put(x, from, count);
        } else {
            boolean[] x = (boolean[]) array;
            for (int i = from; i < from + count; i++) {
                bytes.put((byte) (x[i] ? 1 : 0));
            }
        }
    }

    /** Elements [from, from + count) of {@code array}, read from the message itself. */
    private static void get(ByteBuffer in, Object array, int from, int count) {
        int size = count * sizeOf(array.getClass().getComponentType());
        if (size > in.remaining()) {
            throw new IllegalArgumentException("object-space message: " + count + " array elements do not fit the message");
        }
        ByteBuffer bytes = in.slice(in.position(), size).order(ELEMENT_ORDER);
        in.position(in.position() + size);
        if (array instanceof int[] x) {
            bytes.asIntBuffer().get(x, from, count);
        } else if (array instanceof double[] x) {
            bytes.asDoubleBuffer().get(x, from, count);
        } else if (array instanceof long[] x) {
            bytes.asLongBuffer().get(x, from, count);
        } else if (array instanceof byte[] x) {
            bytes.get(x, from, count);
        } else if (array instanceof char[] x) {
            bytes.asCharBuffer().get(x, from, count);
        } else if (array instanceof float[] x) {
            bytes.asFloatBuffer().get(x, from, count);
        } else if (array instanceof short[] x) {
            bytes.asShortBuffer().get(x, from, count);
        } else {
            boolean[] x = (boolean[]) array;
            for (int i = 0; i < count; i++) {
                x[from + i] = bytes.get(i) != 0;
            }
        }
    }

    private static Object newArray(char descriptor, int length) {
        return switch (descriptor) {
            case 'I' -> new int[length];
            case 'D' -> new double[length];
            case 'J' -> new long[length];
            case 'B' -> new byte[length];
            case 'C' -> new char[length];
            case 'F' -> new float[length];
            case 'S' -> new short[length];
            case 'Z' -> new boolean[length];
            default -> throw new IllegalArgumentException("object-space message: unknown array type " + descriptor);
        };
    }

    private static char descriptorOf(Class<?> component) {
        return component == int.class ? 'I' : component == double.class ? 'D' : component == long.class ? 'J'
                : component == byte.class ? 'B' : component == char.class ? 'C' : component == float.class ? 'F'
                : component == short.class ? 'S' : 'Z';
    }

    private static int sizeOf(Class<?> component) {
        return sizeOf(descriptorOf(component));
    }

    private static int sizeOf(char descriptor) {
        return switch (descriptor) {
            case 'J', 'D' -> 8;
            case 'I', 'F' -> 4;
            case 'C', 'S' -> 2;
            default -> 1;
        };
    }
}
