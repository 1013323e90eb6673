package mpi;

import java.util.Arrays;

/**
 * An MPI datatype, as mpiJava 1.2 defines it for Java.
 *
 * <p>Java has no addresses, so a message buffer is an array of the datatype's <em>base type</em>
 * ({@code byte[]} for {@code MPI.BYTE} and {@code MPI.PACKED}, {@code char[]}, {@code short[]},
 * {@code boolean[]}, {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}, and any
 * reference array for {@code MPI.OBJECT}), and offsets, displacements, strides, bounds and extents
 * are all counted in <em>elements of the base type</em>, never in bytes; this holds for
 * {@link #Hvector} and {@link #Hindexed} too, which therefore differ from {@link #Vector} and
 * {@link #Indexed} only in not scaling by the old type's extent. All components of a derived type
 * share one base type; {@code MPI.LB} and {@code MPI.UB} only set bounds. A multi-dimensional
 * primitive array such as {@code int[4][3]} may be passed wherever a buffer is expected and is
 * read as its row-major flattening, 12 ints (JMPI, section 4.5.3).
 *
 * <p>A derived datatype must be {@link #Commit committed} before a communication or Pack/Unpack
 * uses it, as MPI requires; its queries ({@link #Extent} etc.) work before.
 */
public class Datatype {
    private static final Datatype[] PREDEFINED = new Datatype[BaseType.COUNT];
    private static final Datatype[] PAIRS = new Datatype[BaseType.COUNT];

    static {
        for (int t = 0; t < BaseType.COUNT; t++) {
            TypeMap map = t == BaseType.LB || t == BaseType.UB ? TypeMap.marker(t == BaseType.LB) : TypeMap.basic(t);
            PREDEFINED[t] = new Datatype(new TypeLayout("MPI." + BaseType.simpleName(t), map, true));
        }
        for (int t : new int[] {BaseType.SHORT, BaseType.INT, BaseType.LONG, BaseType.FLOAT, BaseType.DOUBLE}) {
            TypeMap map = new TypeMap();
            try {
                map.add(0, 2, PREDEFINED[t].layout);
                map.finish();
            } catch (MPIException e) {
                throw new ExceptionInInitializerError(e);
            }
            PAIRS[t] = new Datatype(new TypeLayout("MPI." + BaseType.simpleName(t) + "2", map, true));
        }
    }

    /** What communication, packing and the collectives use of this datatype (not part of the mpiJava API). */
    final TypeLayout layout;

    private Datatype(TypeLayout layout) {
        this.layout = layout;
    }

    /**
     * Constructs a datatype that is {@code count} copies of {@code oldtype}, each one extent of
     * {@code oldtype} after the previous ({@code MPI_TYPE_CONTIGUOUS}). The base type is that of
     * {@code oldtype}.
     *
     * @param count replication count
     * @param oldtype old datatype
     * @return the new datatype, to be committed before use
     * @throws MPIException ERR_COUNT if {@code count} is negative, ERR_TYPE if {@code oldtype} is null or freed
     */
    public static Datatype Contiguous(int count, Datatype oldtype) throws MPIException {
        usable(oldtype, "oldtype");
        TypeLayout.nonNegative(count, "count", MPI.ERR_COUNT);
        TypeMap map = new TypeMap();
        map.add(0, count, oldtype.layout);
        return derived("Contiguous(" + count + ", " + oldtype + ")", map);
    }

    /**
     * Constructs a datatype of {@code count} equally spaced blocks, each of {@code blocklength}
     * copies of {@code oldtype}, the blocks starting {@code stride} extents of {@code oldtype}
     * apart ({@code MPI_TYPE_VECTOR}). With a row-major {@code double[rows * cols]} matrix,
     * {@code Vector(rows, 1, cols, MPI.DOUBLE)} is one column.
     *
     * @param count number of blocks
     * @param blocklength number of {@code oldtype} copies in each block
     * @param stride distance between block starts, in extents of {@code oldtype} (may be negative)
     * @param oldtype old datatype
     * @return the new datatype, to be committed before use
     * @throws MPIException ERR_COUNT if {@code count} is negative, ERR_ARG if {@code blocklength} is, ERR_TYPE if {@code oldtype} is null or freed
     */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        return vector("Vector", count, blocklength, stride, oldtype, true);
    }

    /**
     * Like {@link #Vector}, but {@code stride} is a number of base elements rather than of
     * {@code oldtype} extents ({@code MPI_TYPE_HVECTOR}). <em>Unlike the C binding</em>, the stride
     * is not in bytes: mpiJava buffers have no byte addresses.
     *
     * @param count number of blocks
     * @param blocklength number of {@code oldtype} copies in each block
     * @param stride distance between block starts, in base elements (may be negative)
     * @param oldtype old datatype
     * @return the new datatype, to be committed before use
     * @throws MPIException ERR_COUNT if {@code count} is negative, ERR_ARG if {@code blocklength} is, ERR_TYPE if {@code oldtype} is null or freed
     */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        return vector("Hvector", count, blocklength, stride, oldtype, false);
    }

    /**
     * Constructs a datatype of blocks that each hold their own number of {@code oldtype} copies at
     * their own displacement, counted in extents of {@code oldtype} ({@code MPI_TYPE_INDEXED}).
     * The number of blocks is the length of {@code array_of_blocklengths}.
     *
     * @param array_of_blocklengths number of {@code oldtype} copies in each block
     * @param array_of_displacements displacement of each block, in extents of {@code oldtype}
     * @param oldtype old datatype
     * @return the new datatype, to be committed before use
     * @throws MPIException ERR_ARG if the arrays are null, differ in length or a block length is negative; ERR_TYPE if {@code oldtype} is null or freed
     */
    public static Datatype Indexed(int[] array_of_blocklengths, int[] array_of_displacements, Datatype oldtype)
            throws MPIException {
        return indexed("Indexed", array_of_blocklengths, array_of_displacements, oldtype, true);
    }

    /**
     * Like {@link #Indexed}, but the displacements are numbers of base elements rather than of
     * {@code oldtype} extents ({@code MPI_TYPE_HINDEXED}). <em>Unlike the C binding</em>, they are
     * not in bytes.
     *
     * @param array_of_blocklengths number of {@code oldtype} copies in each block
     * @param array_of_displacements displacement of each block, in base elements
     * @param oldtype old datatype
     * @return the new datatype, to be committed before use
     * @throws MPIException ERR_ARG if the arrays are null, differ in length or a block length is negative; ERR_TYPE if {@code oldtype} is null or freed
     */
    public static Datatype Hindexed(int[] array_of_blocklengths, int[] array_of_displacements, Datatype oldtype)
            throws MPIException {
        return indexed("Hindexed", array_of_blocklengths, array_of_displacements, oldtype, false);
    }

    /**
     * The most general constructor ({@code MPI_TYPE_STRUCT}): block {@code i} is
     * {@code array_of_blocklengths[i]} copies of {@code array_of_types[i]} at displacement
     * {@code array_of_displacements[i]}, in base elements (<em>not</em> bytes). All types with a
     * base type must have the <em>same</em> one, which becomes the new type's; {@code MPI.LB} and
     * {@code MPI.UB} components set the lower and upper bound explicitly.
     *
     * @param array_of_blocklengths number of copies in each block
     * @param array_of_displacements displacement of each block, in base elements
     * @param array_of_types datatype of each block
     * @return the new datatype, to be committed before use
     * @throws MPIException ERR_ARG if the arrays are null, differ in length or a block length is negative; ERR_TYPE if a type is null or freed or the base types differ
     */
    public static Datatype Struct(int[] array_of_blocklengths, int[] array_of_displacements, Datatype[] array_of_types)
            throws MPIException {
        blocks(array_of_blocklengths, array_of_displacements);
        if (array_of_types == null || array_of_types.length != array_of_blocklengths.length) {
            throw new MPIException(MPI.ERR_ARG, "Struct needs one type per block: " + array_of_blocklengths.length
                    + " block lengths but " + (array_of_types == null ? "null" : array_of_types.length + "") + " types");
        }
        TypeMap map = new TypeMap();
        for (int i = 0; i < array_of_types.length; i++) {
            usable(array_of_types[i], "array_of_types[" + i + "]");
            map.add(array_of_displacements[i], array_of_blocklengths[i], array_of_types[i].layout);
        }
        return derived("Struct(" + list(array_of_blocklengths) + ", " + list(array_of_displacements) + ", "
                + list(array_of_types) + ")", map);
    }

    /**
     * The extent of this datatype, {@code Ub() - Lb()}, in base elements ({@code MPI_TYPE_EXTENT}):
     * the distance between consecutive items of a buffer.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Extent() throws MPIException {
        layout.live();
        return layout.ub() - layout.lb();
    }

    /**
     * The lower bound of this datatype in base elements ({@code MPI_TYPE_LB}): the least
     * displacement of its {@code MPI.LB} markers if it has any, of its data otherwise.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Lb() throws MPIException {
        layout.live();
        return layout.lb();
    }

    /**
     * The upper bound of this datatype in base elements ({@code MPI_TYPE_UB}): the greatest
     * displacement of its {@code MPI.UB} markers if it has any, one past its last data element otherwise.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Ub() throws MPIException {
        layout.live();
        return layout.ub();
    }

    /**
     * The number of base elements of data in one item of this datatype ({@code MPI_TYPE_SIZE});
     * mpiJava counts elements, not bytes. Bound markers count nothing.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Size() throws MPIException {
        layout.live();
        return layout.size();
    }

    /**
     * Commits this datatype so that communication and Pack/Unpack may use it
     * ({@code MPI_TYPE_COMMIT}). Predefined datatypes are committed already; committing twice is harmless.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public void Commit() throws MPIException {
        layout.commit();
    }

    /**
     * Frees this derived datatype ({@code MPI_TYPE_FREE}); it can no longer be used. Types built
     * from it stay valid.
     *
     * @throws MPIException ERR_TYPE if this is a predefined datatype or was freed already
     */
    public void Free() throws MPIException {
        layout.free();
    }

    /** The datatype's name, e.g. {@code MPI.INT} or {@code Vector(4, 1, 3, MPI.DOUBLE)}. */
    @Override
    public String toString() {
        return layout.toString();
    }

    /** The predefined datatype of {@code baseType} (a {@link BaseType} code, LB and UB included). */
    static Datatype predefined(int baseType) {
        return PREDEFINED[baseType];
    }

    /** The pair type of {@code baseType} for MAXLOC/MINLOC: two contiguous elements (MPI.SHORT2 ... MPI.DOUBLE2). */
    static Datatype pair(int baseType) {
        Datatype pair = baseType >= 0 && baseType < PAIRS.length ? PAIRS[baseType] : null;
        if (pair == null) {
            throw new IllegalArgumentException("no pair type for base type " + baseType);
        }
        return pair;
    }

    private static Datatype derived(String name, TypeMap map) throws MPIException {
        map.finish();
        return new Datatype(new TypeLayout(name, map, false));
    }

    private static Datatype vector(String what, int count, int blocklength, int stride, Datatype oldtype,
            boolean strideInExtents) throws MPIException {
        usable(oldtype, "oldtype");
        TypeLayout.nonNegative(count, "count", MPI.ERR_COUNT);
        TypeLayout.nonNegative(blocklength, "blocklength", MPI.ERR_ARG);
        long unit = strideInExtents ? (long) oldtype.layout.ub() - oldtype.layout.lb() : 1;
        TypeMap map = new TypeMap();
        for (int i = 0; i < count; i++) {
            map.add(i * (long) stride * unit, blocklength, oldtype.layout);
        }
        return derived(what + "(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")", map);
    }

    private static Datatype indexed(String what, int[] blocklengths, int[] displacements, Datatype oldtype,
            boolean displacementsInExtents) throws MPIException {
        blocks(blocklengths, displacements);
        usable(oldtype, "oldtype");
        long unit = displacementsInExtents ? (long) oldtype.layout.ub() - oldtype.layout.lb() : 1;
        TypeMap map = new TypeMap();
        for (int i = 0; i < blocklengths.length; i++) {
            map.add(displacements[i] * unit, blocklengths[i], oldtype.layout);
        }
        return derived(what + "(" + list(blocklengths) + ", " + list(displacements) + ", " + oldtype + ")", map);
    }

    private static void blocks(int[] blocklengths, int[] displacements) throws MPIException {
        if (blocklengths == null || displacements == null) {
            throw new MPIException(MPI.ERR_ARG, "array_of_blocklengths and array_of_displacements must not be null");
        }
        if (blocklengths.length != displacements.length) {
            throw new MPIException(MPI.ERR_ARG, "array_of_blocklengths has " + blocklengths.length
                    + " entries but array_of_displacements has " + displacements.length);
        }
        for (int i = 0; i < blocklengths.length; i++) {
            TypeLayout.nonNegative(blocklengths[i], "array_of_blocklengths[" + i + "]", MPI.ERR_ARG);
        }
    }

    private static void usable(Datatype type, String what) throws MPIException {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, what + " is null");
        }
        type.layout.live();
    }

    private static String list(int[] values) {
        return values.length <= 8 ? Arrays.toString(values)
                : Arrays.toString(Arrays.copyOf(values, 8)).replace("]", ", ... (" + values.length + ")]");
    }

    private static String list(Datatype[] types) {
        return types.length <= 8 ? Arrays.toString(types)
                : Arrays.toString(Arrays.copyOf(types, 8)).replace("]", ", ... (" + types.length + ")]");
    }
}
