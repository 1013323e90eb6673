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
        int count = Elements.of(current).differences(current, agreed, from, length, mask);
        if (count == 0) {
            return null;
        }
        Object values = java.lang.reflect.Array.newInstance(current.getClass().getComponentType(), count);
        forEachRun(mask, length, (start, end, value) -> System.arraycopy(current, from + start, values, value, end - start));
        return new MaskedRun(length, mask, values);
    }

    /** Writes the changed elements into {@code target} at {@code from}: a copy per run of changed elements. */
    void applyTo(Object target, int from) {
        forEachRun(mask, length, (start, end, value) -> System.arraycopy(values, value, target, from + start, end - start));
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
        long[][] keptHolder = {null};
        forEachRun(mask, length, (start, end, value) -> {
            for (int i = start; i < end; i++) {
                if (stamps[from + i] > acknowledged) {
                    if (keptHolder[0] == null) {
                        keptHolder[0] = mask.clone();
                    }
                    keptHolder[0][i >>> 6] &= ~(1L << i);
                }
            }
        });
        long[] kept = keptHolder[0];
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
        Object keptValues = java.lang.reflect.Array.newInstance(values.getClass().getComponentType(), count);
        int next = 0;
        int taken = 0;
        for (int i = nextSet(mask, 0); i >= 0; i = nextSet(mask, i + 1), next++) {
            if ((kept[i >>> 6] & (1L << i)) != 0) {
                System.arraycopy(values, next, keptValues, taken++, 1);
            }
        }
        return new MaskedRun(length, kept, keptValues);
    }

    /** Records {@code release} as the latest release to have carried each element of this run. */
    void stamp(long[] stamps, int from, long release) {
        forEachRun(mask, length, (start, end, value) -> java.util.Arrays.fill(stamps, from + start, from + end, release));
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
        if ((length & 63) != 0 && mask[mask.length - 1] >>> (length & 63) != 0) {
            throw new IllegalArgumentException("object-space message: a run's mask goes past its " + length + " elements");
        }
        Object values = PrimitiveArrays.read(in);
        if (java.lang.reflect.Array.getLength(values) != count) {
            throw new IllegalArgumentException("object-space message: a run's mask and values disagree");
        }
        return new MaskedRun(length, mask, values);
    }

    private interface Run {
        /** Elements [start, end) of the window changed; the first of their values is at {@code value}. */
        void accept(int start, int end, int value);
    }

    /** Calls {@code run} with each [start, end) of consecutive set bits of {@code mask}, in order. */
    private static void forEachRun(long[] mask, int length, Run run) {
        int value = 0;
        for (int start = nextSet(mask, 0); start >= 0; ) {
            int end = next(mask, start + 1, false);
            end = end < 0 ? length : Math.min(end, length);
            run.accept(start, end, value);
            value += end - start;
            start = end < length ? nextSet(mask, end + 1) : -1;
        }
    }

    private static int nextSet(long[] mask, int from) {
        return next(mask, from, true);
    }

    /** The first bit at or after {@code from} that is set (or clear), or -1 when the mask has none. */
    private static int next(long[] mask, int from, boolean set) {
        long flip = set ? 0 : -1L;
        int word = from >>> 6;
        if (word >= mask.length) {
            return -1;
        }
        long bits = (mask[word] ^ flip) & (-1L << from);
        while (true) {
            if (bits != 0) {
                return (word << 6) + Long.numberOfTrailingZeros(bits);
            }
            if (++word == mask.length) {
                return -1;
            }
            bits = mask[word] ^ flip;
        }
    }

    /**
     * Finds the elements of a window that differ: one loop per common element type, so that the
     * compare is not a call per element; the other types hop from difference to difference with
     * the vectorized mismatch (floating-point elements compare by their bits).
     */
    private static class Elements {
        private static final Elements ANY = new Elements();
        private static final Elements INTS = new Elements() {
            @Override
            int differences(Object current, Object agreed, int from, int length, long[] mask) {
                int[] c = (int[]) current;
                int[] a = (int[]) agreed;
                int count = 0;
                for (int i = 0; i < length; i++) {
                    if (c[from + i] != a[from + i]) {
                        count += mark(mask, i);
                    }
                }
                return count;
            }
        };
        private static final Elements LONGS = new Elements() {
            @Override
            int differences(Object current, Object agreed, int from, int length, long[] mask) {
                long[] c = (long[]) current;
                long[] a = (long[]) agreed;
                int count = 0;
                for (int i = 0; i < length; i++) {
                    if (c[from + i] != a[from + i]) {
                        count += mark(mask, i);
                    }
                }
                return count;
            }
        };
        private static final Elements DOUBLES = new Elements() {
            @Override
            int differences(Object current, Object agreed, int from, int length, long[] mask) {
                double[] c = (double[]) current;
                double[] a = (double[]) agreed;
                int count = 0;
                for (int i = 0; i < length; i++) {
                    if (Double.doubleToRawLongBits(c[from + i]) != Double.doubleToRawLongBits(a[from + i])) {
                        count += mark(mask, i);
                    }
                }
                return count;
            }
        };
        private static final Elements BYTES = new Elements() {
            @Override
            int differences(Object current, Object agreed, int from, int length, long[] mask) {
                byte[] c = (byte[]) current;
                byte[] a = (byte[]) agreed;
                int count = 0;
                for (int i = 0; i < length; i++) {
                    if (c[from + i] != a[from + i]) {
                        count += mark(mask, i);
                    }
                }
                return count;
            }
        };

        static Elements of(Object array) {
            return array instanceof int[] ? INTS : array instanceof double[] ? DOUBLES
                    : array instanceof long[] ? LONGS : array instanceof byte[] ? BYTES : ANY;
        }

        private static int mark(long[] mask, int i) {
            mask[i >>> 6] |= 1L << i;
            return 1;
        }

        /** Sets the bit of each element of [from, from + length) that differs between the two arrays; returns how many. */
        int differences(Object current, Object agreed, int from, int length, long[] mask) {
            int end = from + length;
            int count = 0;
            for (int at = PrimitiveArrays.mismatch(current, agreed, from, end); at >= 0;
                    at = at + 1 < end ? PrimitiveArrays.mismatch(current, agreed, at + 1, end) : -1) {
                count += mark(mask, at - from);
            }
            return count;
        }
    }
}
