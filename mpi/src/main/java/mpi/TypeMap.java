package mpi;

import java.util.Arrays;

/**
 * Builds the type map of a derived datatype: the data entries flattened to runs of
 * consecutive base elements (displacement, length) in type-map order, and the bounds.
 *
 * <p>Every constructor of mpiJava is a sequence of blocks, each block being some replicas of an
 * old type laid out one extent apart from a start displacement, so {@link #add} is the only
 * composition step. Bounds follow MPI-1: the lower bound is the least displacement of an
 * {@code MPI.LB} marker if there is one, of any entry otherwise; the upper bound likewise with
 * {@code MPI.UB} and the end of entries. Displacements are in base elements, as everywhere in mpiJava.
 */
final class TypeMap {
    int base = BaseType.NONE;
    private TypeLayout baseSource;

    int[] disp = new int[4];
    int[] len = new int[4];
    int blocks;
    long size;

    // Bounds of data entries, and of the bound markers: a side with a marker ignores everything
    // that is not a marker, which is why the two kinds are tracked apart.
    long dataMin = Long.MAX_VALUE;
    long dataEnd = Long.MIN_VALUE;
    long plainLb = Long.MAX_VALUE;
    long plainUb = Long.MIN_VALUE;
    long markedLb = Long.MAX_VALUE;
    long markedUb = Long.MIN_VALUE;
    boolean lbMarked;
    boolean ubMarked;

    /** The map of a predefined type holding one element of {@code base}. */
    public static TypeMap basic(int base) {
        TypeMap m = new TypeMap();
        m.base = base;
        m.disp = new int[] {0};
        m.len = new int[] {1};
        m.blocks = 1;
        m.size = 1;
        m.dataMin = m.plainLb = 0;
        m.dataEnd = m.plainUb = 1;
        return m;
    }

    /** The map of {@code MPI.LB} ({@code lower}) or {@code MPI.UB}: a marker at 0 and no data. */
    public static TypeMap marker(boolean lower) {
        TypeMap m = new TypeMap();
        m.disp = new int[0];
        m.len = new int[0];
        m.dataMin = 0;
        m.dataEnd = 0;
        if (lower) {
            m.lbMarked = true;
            m.markedLb = 0;
            m.plainUb = 0;
        } else {
            m.ubMarked = true;
            m.markedUb = 0;
            m.plainLb = 0;
        }
        return m;
    }

    /**
     * Appends {@code count} replicas of {@code type}, the first at displacement {@code start} and
     * each next one extent of {@code type} further on.
     */
    public void add(long start, int count, TypeLayout type) throws MPIException {
        if (count == 0) {
            return;
        }
        if (type.base != BaseType.NONE) {
            if (base == BaseType.NONE) {
                base = type.base;
                baseSource = type;
            } else if (base != type.base) {
                throw new MPIException(MPI.ERR_TYPE, "all components must share one base type (mpiJava has no"
                        + " byte addresses to mix them), but " + type + " has base type " + BaseType.name(type.base)
                        + " while " + baseSource + " has " + BaseType.name(base));
            }
        }
        long extent = (long) type.ub - type.lb;
        long first = start;
        long last = start + (count - 1) * extent;
        long low = Math.min(first, last);
        long high = Math.max(first, last);

        size += (long) count * type.size;
        if (size > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_ARG, "the datatype would hold " + size + " base elements, more than "
                    + Integer.MAX_VALUE);
        }
        if (type.size > 0) {
            dataMin = Math.min(dataMin, low + type.dataMin);
            dataEnd = Math.max(dataEnd, high + type.dataEnd);
            requireInt(dataMin);
            requireInt(dataEnd);
            if (type.isRun(count)) {
                // Replicas that abut form one run: Contiguous(n, MPI.INT) costs one block, not n.
                append((int) (start + type.disp[0]), count * type.len[0]);
            } else {
                for (int r = 0; r < count; r++) {
                    long at = start + r * extent;
                    for (int b = 0; b < type.disp.length; b++) {
                        append((int) (at + type.disp[b]), type.len[b]);
                    }
                }
            }
        }
        if (type.size > 0 || type.lbMarked || type.ubMarked) {
            long lb = low + type.lb;
            long ub = high + type.ub;
            if (type.lbMarked) {
                lbMarked = true;
                markedLb = Math.min(markedLb, lb);
            } else {
                plainLb = Math.min(plainLb, lb);
            }
            if (type.ubMarked) {
                ubMarked = true;
                markedUb = Math.max(markedUb, ub);
            } else {
                plainUb = Math.max(plainUb, ub);
            }
        }
    }

    long lb() {
        return lbMarked ? markedLb : plainLb == Long.MAX_VALUE ? 0 : plainLb;
    }

    long ub() {
        return ubMarked ? markedUb : plainUb == Long.MIN_VALUE ? 0 : plainUb;
    }

    /** The built map is checked to fit the int displacements that offsets are added to. */
    public void finish() throws MPIException {
        requireInt(lb());
        requireInt(ub());
        requireInt(ub() - lb());
        disp = Arrays.copyOf(disp, blocks);
        len = Arrays.copyOf(len, blocks);
        if (size == 0) {
            dataMin = 0;
            dataEnd = 0;
        }
    }

    private static void requireInt(long v) throws MPIException {
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_ARG, "a displacement or bound of the datatype would be " + v
                    + " elements, outside the int range of mpiJava offsets");
        }
    }

    private void append(int at, int n) {
        if (n == 0) {
            return;
        }
        if (blocks > 0 && disp[blocks - 1] + (long) len[blocks - 1] == at) {
            len[blocks - 1] += n;
            return;
        }
        if (blocks == disp.length) {
            disp = Arrays.copyOf(disp, blocks * 2);
            len = Arrays.copyOf(len, blocks * 2);
        }
        disp[blocks] = at;
        len[blocks] = n;
        blocks++;
    }
}
