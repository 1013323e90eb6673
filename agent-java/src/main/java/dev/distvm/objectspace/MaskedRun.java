package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;

/**
 * A window of a primitive array with the elements in it that changed: a bit mask over the window and
 * the new values of the set bits, in order. Only changed elements are ever applied, so a window can
 * be wide (cheap to find and to carry) without overwriting, where it is applied, an element that
 * someone else wrote meanwhile. Red/black and strided writes are what this is for: as exact runs of
 * changed elements they cost a run header per element.
 */
final class MaskedRun {
    /** Window width: wide enough that one vectorized compare skips most unchanged data. */
    static final int WINDOW = 256;

    final int length;
    final long[] mask;
    final Object values;

    MaskedRun(int length, long[] mask, Object values) {
        this.length = length;
        this.mask = mask;
        this.values = values;
    }

    /** The changes of [from, from + length) of {@code current} against {@code agreed}, or null when none. */
    static MaskedRun diff(Object current, Object agreed, int from, int length) {
        long[] mask = new long[(length + 63) >>> 6];
        int count = 0;
        Elements elements = Elements.of(current);
        for (int i = 0; i < length; i++) {
            if (!elements.same(current, from + i, agreed, from + i)) {
                mask[i >>> 6] |= 1L << i;
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        Object values = java.lang.reflect.Array.newInstance(current.getClass().getComponentType(), count);
        int next = 0;
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1)) {
            elements.copy(current, from + i, values, next++);
        }
        return new MaskedRun(length, mask, values);
    }

    /** Writes the changed elements into {@code target} at {@code from}. */
    void applyTo(Object target, int from) {
        Elements elements = Elements.of(target);
        int next = 0;
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1)) {
            elements.copy(values, next++, target, from + i);
        }
    }

    /**
     * Like {@link #applyTo}, but an element of {@code copy} that no longer equals {@code agreed} was
     * written here since: it keeps its value (a compare-and-set, so a write racing with this keeps it too).
     */
    void refresh(Object copy, Object agreed, int from) {
        if (PrimitiveArrays.rangeEquals(copy, agreed, from, from + length)) {
            applyTo(copy, from);
            return;
        }
        Slots slots = Slots.of(copy);
        int next = 0;
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1)) {
            slots.compareAndSet(copy, from + i, java.lang.reflect.Array.get(agreed, from + i),
                    java.lang.reflect.Array.get(values, next++));
        }
    }

    /**
     * This run without the elements whose stamp (see {@link Twin#refresh}) is above {@code acknowledged}:
     * itself when there are none, null when nothing is left.
     */
    MaskedRun notStampedAfter(long[] stamps, int from, long acknowledged) {
        long[] kept = null;
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1)) {
            if (stamps[from + i] > acknowledged) {
                if (kept == null) {
                    kept = mask.clone();
                }
                kept[i >>> 6] &= ~(1L << i);
            }
        }
        if (kept == null) {
            return this;
        }
        int count = 0;
        for (long word : kept) {
            count += Long.bitCount(word);
        }
        if (count == 0) {
            return null;
        }
        Elements elements = Elements.of(values);
        Object keptValues = java.lang.reflect.Array.newInstance(values.getClass().getComponentType(), count);
        int next = 0;
        int taken = 0;
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1), next++) {
            if ((kept[i >>> 6] & (1L << i)) != 0) {
                elements.copy(values, next, keptValues, taken++);
            }
        }
        return new MaskedRun(length, kept, keptValues);
    }

    /** Records {@code release} as the latest release to have carried each element of this run. */
    void stamp(long[] stamps, int from, long release) {
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1)) {
            stamps[from + i] = release;
        }
    }

    void write(WireBuffer out) {
        out.appendInt(length);
        for (long word : mask) {
            out.appendLong(word);
        }
        PrimitiveArrays.write(out, values);
    }

    static MaskedRun read(ByteBuffer in) {
        int length = in.getInt();
        if (length <= 0 || length > WINDOW) {
            throw new IllegalArgumentException("object-space message: a run of " + length + " elements");
        }
        long[] mask = new long[(length + 63) >>> 6];
        int count = 0;
        for (int w = 0; w < mask.length; w++) {
            mask[w] = in.getLong();
            count += Long.bitCount(mask[w]);
        }
        Object values = PrimitiveArrays.read(in);
        if (java.lang.reflect.Array.getLength(values) != count) {
            throw new IllegalArgumentException("object-space message: a run's mask and values disagree");
        }
        return new MaskedRun(length, mask, values);
    }

    private static int nextSet(long[] mask, int from) {
        int word = from >>> 6;
        if (word >= mask.length) {
            return -1;
        }
        long bits = mask[word] & (-1L << from);
        while (true) {
            if (bits != 0) {
                return (word << 6) + Long.numberOfTrailingZeros(bits);
            }
            if (++word == mask.length) {
                return -1;
            }
            bits = mask[word];
        }
    }

    /** Element access without boxing for the common element types; boxed for the rest. */
    private abstract static class Elements {
        private static final Elements INTS = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return ((int[]) a)[i] == ((int[]) b)[j];
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                ((int[]) to)[j] = ((int[]) from)[i];
            }
        };
        private static final Elements LONGS = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return ((long[]) a)[i] == ((long[]) b)[j];
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                ((long[]) to)[j] = ((long[]) from)[i];
            }
        };
        private static final Elements DOUBLES = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return Double.doubleToRawLongBits(((double[]) a)[i]) == Double.doubleToRawLongBits(((double[]) b)[j]);
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                ((double[]) to)[j] = ((double[]) from)[i];
            }
        };
        private static final Elements BYTES = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return ((byte[]) a)[i] == ((byte[]) b)[j];
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                ((byte[]) to)[j] = ((byte[]) from)[i];
            }
        };
        private static final Elements FLOATS = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return Float.floatToRawIntBits(((float[]) a)[i]) == Float.floatToRawIntBits(((float[]) b)[j]);
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                ((float[]) to)[j] = ((float[]) from)[i];
            }
        };
        private static final Elements CHARS = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return ((char[]) a)[i] == ((char[]) b)[j];
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                ((char[]) to)[j] = ((char[]) from)[i];
            }
        };
        private static final Elements OTHERS = new Elements() {
            @Override
            boolean same(Object a, int i, Object b, int j) {
                return java.lang.reflect.Array.get(a, i).equals(java.lang.reflect.Array.get(b, j));
            }

            @Override
            void copy(Object from, int i, Object to, int j) {
                java.lang.reflect.Array.set(to, j, java.lang.reflect.Array.get(from, i));
            }
        };

        static Elements of(Object array) {
            return array instanceof int[] ? INTS : array instanceof double[] ? DOUBLES
                    : array instanceof long[] ? LONGS : array instanceof byte[] ? BYTES
                    : array instanceof float[] ? FLOATS : array instanceof char[] ? CHARS : OTHERS;
        }

        abstract boolean same(Object a, int i, Object b, int j);

        abstract void copy(Object from, int i, Object to, int j);
    }
}
