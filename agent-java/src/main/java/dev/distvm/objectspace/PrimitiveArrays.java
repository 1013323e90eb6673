package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Bulk operations on arrays of any primitive type, so twins of arrays compare and travel in bulk. */
final class PrimitiveArrays {
    private static final ByteOrder ELEMENT_ORDER = ByteOrder.LITTLE_ENDIAN;

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
        int relative;
        if (a instanceof int[] x) {
            relative = Arrays.mismatch(x, from, to, (int[]) b, from, to);
        } else if (a instanceof double[] x) {
            relative = Arrays.mismatch(x, from, to, (double[]) b, from, to);
        } else if (a instanceof long[] x) {
            relative = Arrays.mismatch(x, from, to, (long[]) b, from, to);
        } else if (a instanceof byte[] x) {
            relative = Arrays.mismatch(x, from, to, (byte[]) b, from, to);
        } else if (a instanceof char[] x) {
            relative = Arrays.mismatch(x, from, to, (char[]) b, from, to);
        } else if (a instanceof float[] x) {
            relative = Arrays.mismatch(x, from, to, (float[]) b, from, to);
        } else if (a instanceof short[] x) {
            relative = Arrays.mismatch(x, from, to, (short[]) b, from, to);
        } else {
            relative = Arrays.mismatch((boolean[]) a, from, to, (boolean[]) b, from, to);
        }
        return relative < 0 ? -1 : from + relative;
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
        Class<?> component = array.getClass().getComponentType();
        out.appendShort((short) descriptorOf(component));
        out.appendInt(length);
        ByteBuffer bytes = out.appendView(length * sizeOf(component)).order(ELEMENT_ORDER); // straight into the message
        if (array instanceof int[] x) {
            bytes.asIntBuffer().put(x);
        } else if (array instanceof double[] x) {
            bytes.asDoubleBuffer().put(x);
        } else if (array instanceof long[] x) {
            bytes.asLongBuffer().put(x);
        } else if (array instanceof byte[] x) {
            bytes.put(x);
        } else if (array instanceof char[] x) {
            bytes.asCharBuffer().put(x);
        } else if (array instanceof float[] x) {
            bytes.asFloatBuffer().put(x);
        } else if (array instanceof short[] x) {
            bytes.asShortBuffer().put(x);
        } else {
            for (boolean b : (boolean[]) array) {
                bytes.put((byte) (b ? 1 : 0));
            }
        }
    }

    /** The bytes {@link #write} takes for {@code array}. */
    static long wireSize(Object array) {
        return Short.BYTES + Integer.BYTES
                + (long) java.lang.reflect.Array.getLength(array) * sizeOf(array.getClass().getComponentType());
    }

    static Object read(ByteBuffer in) {
        char descriptor = in.getChar();
        int length = in.getInt();
        int size = sizeOf(descriptor);
        if (length < 0 || (long) length * size > in.remaining()) {
            throw new IllegalArgumentException("object-space message: an array of " + length + " does not fit the message");
        }
        // the elements are read from the message itself
        ByteBuffer bytes = in.slice(in.position(), length * size).order(ELEMENT_ORDER);
        in.position(in.position() + length * size);
        switch (descriptor) {
            case 'I' -> {
                int[] x = new int[length];
                bytes.asIntBuffer().get(x);
                return x;
            }
            case 'D' -> {
                double[] x = new double[length];
                bytes.asDoubleBuffer().get(x);
                return x;
            }
            case 'J' -> {
                long[] x = new long[length];
                bytes.asLongBuffer().get(x);
                return x;
            }
            case 'B' -> {
                byte[] x = new byte[length];
                bytes.get(x);
                return x;
            }
            case 'C' -> {
                char[] x = new char[length];
                bytes.asCharBuffer().get(x);
                return x;
            }
            case 'F' -> {
                float[] x = new float[length];
                bytes.asFloatBuffer().get(x);
                return x;
            }
            case 'S' -> {
                short[] x = new short[length];
                bytes.asShortBuffer().get(x);
                return x;
            }
            case 'Z' -> {
                boolean[] x = new boolean[length];
                for (int i = 0; i < length; i++) {
                    x[i] = bytes.get(i) != 0;
                }
                return x;
            }
            default -> throw new IllegalArgumentException("object-space message: unknown array type " + descriptor);
        }
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
