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
    /**
     * The window offset of each value, in order; null when every element of the window changed. A
     * red/black or strided window has a run per element, so the elements are moved one by one
     * through these, not as runs: finding a run's end costs more than moving its element.
     */
    private final int[] positions;

    MaskedRun(int length, long[] mask, Object values) {
        this.length = length;
        this.mask = mask;
        this.values = values;
        this.positions = positions(mask, java.lang.reflect.Array.getLength(values), length);
    }

    /** The changes of [from, from + length) of {@code current} against {@code agreed}, or null when none. */
    static MaskedRun diff(Object current, Object agreed, int from, int length) {
        long[] mask = new long[(length + 63) >>> 6];
        Elements elements = Elements.of(current);
        int count = elements.differences(current, agreed, from, length, mask);
        if (count == 0) {
            return null;
        }
        Object values = java.lang.reflect.Array.newInstance(current.getClass().getComponentType(), count);
        int[] positions = positions(mask, count, length);
        if (positions == null) {
            System.arraycopy(current, from, values, 0, count);
        } else {
            elements.gather(current, from, positions, values);
        }
        return new MaskedRun(length, mask, values, positions);
    }

    private MaskedRun(int length, long[] mask, Object values, int[] positions) {
        this.length = length;
        this.mask = mask;
        this.values = values;
        this.positions = positions;
    }

    /** The offsets of the set bits of {@code mask}, of which there are {@code count}; null when all {@code length} are set. */
    private static int[] positions(long[] mask, int count, int length) {
        if (count == length) {
            return null;
        }
        int[] positions = new int[count];
        int next = 0;
        for (int word = 0; word < mask.length; word++) {
            for (long bits = mask[word]; bits != 0; bits &= bits - 1) {
                positions[next++] = (word << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return positions;
    }

    /** Writes the changed elements into {@code target} at {@code from}. */
    void applyTo(Object target, int from) {
        if (positions == null) {
            System.arraycopy(values, 0, target, from, length);
        } else {
            Elements.of(target).scatter(values, positions, target, from);
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
        for (int k = 0; k < count(); k++) {
            int at = from + position(k);
            slots.compareAndSet(copy, at, java.lang.reflect.Array.get(agreed, at), java.lang.reflect.Array.get(values, k));
        }
    }

    private int count() {
        return positions == null ? length : positions.length;
    }

    private int position(int k) {
        return positions == null ? k : positions[k];
    }

    /**
     * This run without the elements whose stamp (see {@link Twin#refresh}) is above {@code acknowledged}:
     * itself when there are none, null when nothing is left.
     */
    MaskedRun notStampedAfter(Stamps stamps, int from, long acknowledged) {
        int count = count();
        int kept = 0;
        for (int k = 0; k < count; k++) {
            kept += stamps.of(from + position(k)) > acknowledged ? 0 : 1;
        }
        if (kept == count) {
            return this;
        }
        if (kept == 0) {
            return null;
        }
        long[] keptMask = new long[mask.length];
        Object keptValues = java.lang.reflect.Array.newInstance(values.getClass().getComponentType(), kept);
        int taken = 0;
        for (int k = 0; k < count; k++) {
            int at = position(k);
            if (stamps.of(from + at) <= acknowledged) {
                keptMask[at >>> 6] |= 1L << at;
                System.arraycopy(values, k, keptValues, taken++, 1);
            }
        }
        return new MaskedRun(length, keptMask, keptValues);
    }

    /** Records {@code release} as the latest release to have carried each element of this run. */
    void stamp(Stamps stamps, int from, long release) {
        if (positions == null) {
            stamps.set(from, from + length, release);
            return;
        }
        for (int at : positions) {
            stamps.set(from + at, release);
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
        if ((length & 63) != 0 && mask[mask.length - 1] >>> (length & 63) != 0) {
            throw new IllegalArgumentException("object-space message: a run's mask goes past its " + length + " elements");
        }
        Object values = PrimitiveArrays.read(in);
        if (java.lang.reflect.Array.getLength(values) != count) {
            throw new IllegalArgumentException("object-space message: a run's mask and values disagree");
        }
        return new MaskedRun(length, mask, values);
    }

    /**
     * Finds the elements of a window that differ and moves them: one loop per common element type,
     * so that neither is a call per element; the other types hop from difference to difference
     * with the vectorized mismatch (floating-point elements compare by their bits) and move an
     * element per copy.
     */
    private static class Elements {
        private static final Elements ANY = new Elements();
        private static final Elements INTS = new Elements() {
            @Override
            void gather(Object source, int from, int[] positions, Object values) {
                int[] s = (int[]) source;
                int[] v = (int[]) values;
                for (int k = 0; k < v.length; k++) {
                    v[k] = s[from + positions[k]];
                }
            }

            @Override
            void scatter(Object values, int[] positions, Object target, int from) {
                int[] v = (int[]) values;
                int[] t = (int[]) target;
                for (int k = 0; k < v.length; k++) {
                    t[from + positions[k]] = v[k];
                }
            }

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
            void gather(Object source, int from, int[] positions, Object values) {
                long[] s = (long[]) source;
                long[] v = (long[]) values;
                for (int k = 0; k < v.length; k++) {
                    v[k] = s[from + positions[k]];
                }
            }

            @Override
            void scatter(Object values, int[] positions, Object target, int from) {
                long[] v = (long[]) values;
                long[] t = (long[]) target;
                for (int k = 0; k < v.length; k++) {
                    t[from + positions[k]] = v[k];
                }
            }

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
            void gather(Object source, int from, int[] positions, Object values) {
                double[] s = (double[]) source;
                double[] v = (double[]) values;
                for (int k = 0; k < v.length; k++) {
                    v[k] = s[from + positions[k]];
                }
            }

            @Override
            void scatter(Object values, int[] positions, Object target, int from) {
                double[] v = (double[]) values;
                double[] t = (double[]) target;
                for (int k = 0; k < v.length; k++) {
                    t[from + positions[k]] = v[k];
                }
            }

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
            void gather(Object source, int from, int[] positions, Object values) {
                byte[] s = (byte[]) source;
                byte[] v = (byte[]) values;
                for (int k = 0; k < v.length; k++) {
                    v[k] = s[from + positions[k]];
                }
            }

            @Override
            void scatter(Object values, int[] positions, Object target, int from) {
                byte[] v = (byte[]) values;
                byte[] t = (byte[]) target;
                for (int k = 0; k < v.length; k++) {
                    t[from + positions[k]] = v[k];
                }
            }

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

        /** Copies the elements of {@code source} at {@code from} plus each position into {@code values}, in order. */
        void gather(Object source, int from, int[] positions, Object values) {
            for (int k = 0; k < positions.length; k++) {
                System.arraycopy(source, from + positions[k], values, k, 1);
            }
        }

        /** Copies each of {@code values} into {@code target} at {@code from} plus its position. */
        void scatter(Object values, int[] positions, Object target, int from) {
            for (int k = 0; k < positions.length; k++) {
                System.arraycopy(values, k, target, from + positions[k], 1);
            }
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
