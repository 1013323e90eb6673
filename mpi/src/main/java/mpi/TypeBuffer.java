package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A message buffer seen as one row-major sequence of base elements, as JMPI (section 4.5.3)
 * defines multi-dimensional buffers: {@code int[4][3]} is 12 ints, {@code a[1][0]} being
 * element 3; rows may be ragged and there may be any number of dimensions. A 1-D array is its own
 * single row. Offsets and displacements of {@link TypeLayout} index this flattened sequence.
 *
 * <p>OBJECT buffers are never flattened: an element of an {@code Object[]} may itself be an array
 * that is to travel as one object, as in mpiJava.
 */
final class TypeBuffer {
    /** The innermost 1-D arrays that hold elements, in row-major order; empty rows are left out. */
    private final Object[] rows;
    /** {@code starts[i]} is the flattened index of {@code rows[i][0]}. */
    private final int[] starts;
    /** Number of elements in all rows together. */
    final int length;

    private TypeBuffer(Object[] rows, int[] starts, int length) {
        this.rows = rows;
        this.starts = starts;
        this.length = length;
    }

    /**
     * The flattened view of {@code buf}, whose innermost element type must be {@code codec}'s.
     *
     * @throws MPIException ERR_BUFFER if {@code buf} is not an array or a row is null, ERR_TYPE if its element type is wrong
     */
    static TypeBuffer of(Object buf, TypeCodec codec, TypeLayout type) throws MPIException {
        if (buf == null) {
            throw new MPIException(MPI.ERR_BUFFER, "the buffer is null; " + type + " needs " + expected(codec));
        }
        Class<?> cls = buf.getClass();
        if (!cls.isArray()) {
            throw new MPIException(MPI.ERR_BUFFER, "the buffer is a " + cls.getName() + ", not an array; "
                    + type + " needs " + expected(codec));
        }
        if (codec.isObject()) {
            if (cls.getComponentType().isPrimitive()) {
                throw new MPIException(MPI.ERR_TYPE, "the buffer is " + cls.getTypeName() + " but " + type
                        + " needs " + expected(codec));
            }
            Object[] one = {buf};
            return new TypeBuffer(one, new int[] {0}, ((Object[]) buf).length);
        }
        Class<?> leaf = cls;
        while (leaf.isArray()) {
            leaf = leaf.getComponentType();
        }
        if (leaf != codec.component) {
            throw new MPIException(MPI.ERR_TYPE, "the buffer is " + cls.getTypeName() + " but " + type
                    + " needs " + expected(codec));
        }
        if (!cls.getComponentType().isArray()) {
            return new TypeBuffer(new Object[] {buf}, new int[] {0}, java.lang.reflect.Array.getLength(buf));
        }
        List<Object> rows = new ArrayList<>();
        long length = collect(buf, "buffer", rows, 0);
        if (length > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_BUFFER, "the buffer " + cls.getTypeName() + " holds " + length
                    + " elements, more than an MPI offset can address");
        }
        int[] starts = new int[rows.size()];
        int at = 0;
        for (int i = 0; i < starts.length; i++) {
            starts[i] = at;
            at += java.lang.reflect.Array.getLength(rows.get(i));
        }
        return new TypeBuffer(rows.toArray(), starts, at);
    }

    private static String expected(TypeCodec codec) {
        return codec.isObject()
                ? "an array of objects (Object[] or any reference array)"
                : "a " + codec.arrayName() + " (or a multi-dimensional " + codec.component.getSimpleName() + " array)";
    }

    // Depth-first in index order is exactly the row-major order of C's a[i][j][k].
    private static long collect(Object array, String path, List<Object> rows, long sum) throws MPIException {
        if (!array.getClass().getComponentType().isArray()) {
            int n = java.lang.reflect.Array.getLength(array);
            if (n > 0) {
                rows.add(array);
            }
            return sum + n;
        }
        Object[] sub = (Object[]) array;
        for (int i = 0; i < sub.length; i++) {
            if (sub[i] == null) {
                throw new MPIException(MPI.ERR_BUFFER, path + "[" + i + "] is null; every row of a multi-dimensional buffer must be an array");
            }
            sum = collect(sub[i], path + "[" + i + "]", rows, sum);
        }
        return sum;
    }

    /** Element type of the rows, e.g. {@code String} for a {@code String[]} OBJECT buffer. */
    Class<?> component() {
        return rows.length == 0 ? Object.class : rows[0].getClass().getComponentType();
    }

    /** The row holding the flattened range {@code [at, at + n)} entirely, or null if it spans rows. */
    Object rowHolding(int at, int n) {
        int r = rowOf(at);
        if (r < 0) {
            return null;
        }
        int len = java.lang.reflect.Array.getLength(rows[r]);
        return at - starts[r] + n <= len ? rows[r] : null;
    }

    /** Index within its row of flattened element {@code at}. */
    int indexInRow(int at) {
        return at - starts[rowOf(at)];
    }

    /**
     * Copies {@code n} elements between the flattened range starting at {@code at} and the 1-D
     * array {@code other} from {@code otherPos}: into the buffer if {@code intoBuffer}, out of it
     * otherwise. One method for both directions keeps row-crossing logic in one place.
     */
    void transfer(int at, Object other, int otherPos, int n, boolean intoBuffer) {
        int r = rowOf(at);
        while (n > 0) {
            Object row = rows[r];
            int local = at - starts[r];
            int chunk = Math.min(n, java.lang.reflect.Array.getLength(row) - local);
            if (intoBuffer) {
                System.arraycopy(other, otherPos, row, local, chunk);
            } else {
                System.arraycopy(row, local, other, otherPos, chunk);
            }
            at += chunk;
            otherPos += chunk;
            n -= chunk;
            r++;
        }
    }

    private int rowOf(int at) {
        if (rows.length == 1) {
            return 0;
        }
        int r = Arrays.binarySearch(starts, at);
        // Empty rows are not stored, so starts are strictly increasing and a miss means "inside the previous row".
        return r >= 0 ? r : -r - 2;
    }
}
