package mpi;

import dist.mpi.ReceiveBuffer;
import java.nio.ByteBuffer;
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
    static final int BYTE_TYPE = 0;
    static final int CHAR_TYPE = 1;
    static final int SHORT_TYPE = 2;
    static final int BOOLEAN_TYPE = 3;
    static final int INT_TYPE = 4;
    static final int LONG_TYPE = 5;
    static final int FLOAT_TYPE = 6;
    static final int DOUBLE_TYPE = 7;
    static final int OBJECT_TYPE = 8;
    static final int PACKED_TYPE = 9;
    static final int LB_TYPE = 10;
    static final int UB_TYPE = 11;
    /** {@link #baseType()} of a type without data, such as {@code MPI.LB} or a struct of markers only. */
    static final int NO_BASE_TYPE = -1;

    /** Bytes before the payload of a message from {@link #pack}: base type code, then the element count. */
    static final int HEADER = 5;

    private static final String[] NAMES = {
        "BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE", "OBJECT", "PACKED", "LB", "UB"};
    private static final TypeCodec[] CODECS = {
        TypeCodec.BYTE, TypeCodec.CHAR, TypeCodec.SHORT, TypeCodec.BOOLEAN, TypeCodec.INT, TypeCodec.LONG,
        TypeCodec.FLOAT, TypeCodec.DOUBLE, TypeCodec.OBJECT, TypeCodec.BYTE};
    private static final Datatype[] PREDEFINED = new Datatype[NAMES.length];
    private static final Datatype[] PAIRS = new Datatype[NAMES.length];

    static {
        for (int t = 0; t < NAMES.length; t++) {
            TypeMap map = t == LB_TYPE || t == UB_TYPE ? TypeMap.marker(t == LB_TYPE) : TypeMap.basic(t);
            PREDEFINED[t] = new Datatype("MPI." + NAMES[t], map, true);
        }
        for (int t : new int[] {SHORT_TYPE, INT_TYPE, LONG_TYPE, FLOAT_TYPE, DOUBLE_TYPE}) {
            TypeMap map = new TypeMap();
            try {
                map.add(0, 2, PREDEFINED[t]);
                map.finish();
            } catch (MPIException e) {
                throw new ExceptionInInitializerError(e);
            }
            PAIRS[t] = new Datatype("MPI." + NAMES[t] + "2", map, true);
        }
    }

    private final String name;
    /** Base type code; PACKED stays distinct from BYTE here so that messages say which it was. */
    final int base;
    /** Null when there is no base type. */
    private final TypeCodec codec;
    /** Runs of the type map in order: {@code len[i]} base elements from displacement {@code disp[i]}. */
    final int[] disp;
    final int[] len;
    final int size;
    final int lb;
    final int ub;
    final boolean lbMarked;
    final boolean ubMarked;
    /** Least displacement of data and one past the greatest: the part of a buffer an item touches. */
    final int dataMin;
    final int dataEnd;
    private final boolean predefined;
    private volatile boolean committed;
    private volatile boolean freed;

    private Datatype(String name, TypeMap map, boolean predefined) {
        this.name = name;
        this.base = map.base;
        this.codec = map.base == NO_BASE_TYPE ? null : CODECS[map.base];
        this.disp = map.disp;
        this.len = map.len;
        this.size = (int) map.size;
        this.lb = (int) map.lb();
        this.ub = (int) map.ub();
        this.lbMarked = map.lbMarked;
        this.ubMarked = map.ubMarked;
        this.dataMin = (int) map.dataMin;
        this.dataEnd = (int) map.dataEnd;
        this.predefined = predefined;
        this.committed = predefined;
    }

    // ---------------------------------------------------------------- mpiJava API

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
        nonNegative(count, "count", MPI.ERR_COUNT);
        TypeMap map = new TypeMap();
        map.add(0, count, oldtype);
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
            map.add(array_of_displacements[i], array_of_blocklengths[i], array_of_types[i]);
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
        live();
        return ub - lb;
    }

    /**
     * The lower bound of this datatype in base elements ({@code MPI_TYPE_LB}): the least
     * displacement of its {@code MPI.LB} markers if it has any, of its data otherwise.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Lb() throws MPIException {
        live();
        return lb;
    }

    /**
     * The upper bound of this datatype in base elements ({@code MPI_TYPE_UB}): the greatest
     * displacement of its {@code MPI.UB} markers if it has any, one past its last data element otherwise.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Ub() throws MPIException {
        live();
        return ub;
    }

    /**
     * The number of base elements of data in one item of this datatype ({@code MPI_TYPE_SIZE});
     * mpiJava counts elements, not bytes. Bound markers count nothing.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public int Size() throws MPIException {
        live();
        return size;
    }

    /**
     * Commits this datatype so that communication and Pack/Unpack may use it
     * ({@code MPI_TYPE_COMMIT}). Predefined datatypes are committed already; committing twice is harmless.
     *
     * @throws MPIException ERR_TYPE if the datatype was freed
     */
    public void Commit() throws MPIException {
        live();
        committed = true;
    }

    /**
     * Frees this derived datatype ({@code MPI_TYPE_FREE}); it can no longer be used. Types built
     * from it stay valid.
     *
     * @throws MPIException ERR_TYPE if this is a predefined datatype or was freed already
     */
    public void Free() throws MPIException {
        if (predefined) {
            throw new MPIException(MPI.ERR_TYPE, name + " is a predefined datatype and cannot be freed");
        }
        live();
        freed = true;
    }

    /** The datatype's name, e.g. {@code MPI.INT} or {@code Vector(4, 1, 3, MPI.DOUBLE)}. */
    @Override
    public String toString() {
        return name;
    }

    // ---------------------------------------------------------------- engine contract

    /** The predefined datatype of {@code baseType} (one of the {@code *_TYPE} codes, LB and UB included). */
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

    /**
     * The base type code; {@code PACKED_TYPE} is reported as {@code BYTE_TYPE} since its buffers are
     * {@code byte[]}, and a type without data (only bound markers) gives {@link #NO_BASE_TYPE}.
     */
    int baseType() {
        return base == PACKED_TYPE ? BYTE_TYPE : base;
    }

    /** Base elements of data in {@code count} items. */
    int elements(int count) {
        return Math.multiplyExact(count, size);
    }

    /**
     * Checks that {@code count} items of this datatype fit {@code buf} from {@code offset}.
     *
     * @throws MPIException ERR_TYPE if this datatype is freed or uncommitted or {@code buf} has the
     *     wrong element type, ERR_COUNT if {@code count} is negative, ERR_BUFFER if {@code buf} is
     *     null or not an array or the items reach outside it. A buffer is not looked at when the
     *     items hold no data.
     */
    void check(Object buf, int offset, int count) throws MPIException {
        access(buf, offset, count);
    }

    /**
     * The wire form of {@code count} items of {@code buf} from {@code offset}: a {@link #HEADER}
     * (base type code, element count) and then the payload that {@link #packInto} would write.
     */
    byte[] pack(Object buf, int offset, int count) throws MPIException {
        return outgoing(buf, offset, count).toArray();
    }

    /** The wire form of {@link #pack}, to be encoded straight from {@code buf} where the items are one run of one row. */
    WirePayload outgoing(Object buf, int offset, int count) throws MPIException {
        return payload(access(buf, offset, count), offset, count, elements(count));
    }

    /**
     * A decoder of a message straight into {@code count} items of {@code buf} from {@code offset}
     * as it arrives, or null when the message must be {@link #unpack unpacked} whole: when it is
     * OBJECT, or does not fit this type (another base type, more elements than the items take: the
     * errors that unpack reports), or the items are not one run of one row. {@code first} holds
     * the message's first {@code min(length, ReceiveBuffer.PEEK)} bytes from its position, which stays put.
     */
    RowDecoder decoder(Object buf, int offset, int count, int length, ByteBuffer first) {
        if (length < HEADER || codec == null || codec.isObject()) {
            return null;
        }
        int sent = first.get(first.position());
        int n = first.getInt(first.position() + 1);
        if (!sameElements(sent) || n > elements(count) || (long) n * codec.width != length - HEADER || !isRun(count)) {
            return null;
        }
        try {
            TypeBuffer view = access(buf, offset, count);
            Object row = view == null ? null : view.rowHolding(offset + disp[0], n);
            return row == null ? null : new RowDecoder(codec, row, view.indexInRow(offset + disp[0]), n);
        } catch (MPIException e) {
            return null; // unpack reports it
        }
    }

    /**
     * Writes the items of a message made by {@link #pack} into {@code count} items of {@code buf}
     * from {@code offset}, filling the type map in order, and returns the number of base elements
     * written (fewer than {@code count} items, even part of one, is fine). The message must have
     * this base type, except that PACKED and BYTE mix freely, a PACKED receive takes the payload
     * bytes of any message, and a PACKED message is read as {@link #packInto}'s form of this type.
     *
     * @throws MPIException ERR_TRUNCATE if the message holds more base elements than {@code count}
     *     items take, ERR_TYPE if its base type does not match, or as {@link #check}
     */
    int unpack(byte[] data, Object buf, int offset, int count) throws MPIException {
        TypeBuffer view = access(buf, offset, count);
        if (data == null || data.length == 0) {
            return 0;
        }
        int n = messageElements(data);
        int capacity = elements(count);
        if (n > capacity) {
            throw new MPIException(MPI.ERR_TRUNCATE, "message truncated: it holds " + n + " base elements of "
                    + baseName(data[0]) + " but the receive buffer takes " + capacity + " (" + count + " items of "
                    + this + ")");
        }
        decode(data, HEADER, n, view, offset, count);
        return n;
    }

    /**
     * How many base elements of this datatype a message made by {@link #pack} holds, as
     * {@link #unpack} would write them; for {@code Status.Get_count}/{@code Get_elements} before
     * the data is received.
     *
     * @throws MPIException ERR_TYPE if the message's base type does not match this one's
     */
    int messageElements(byte[] data) throws MPIException {
        if (data == null || data.length == 0) {
            return 0;
        }
        if (data.length < HEADER) {
            throw new MPIException(MPI.ERR_INTERN, "a message of " + data.length + " bytes is shorter than its header");
        }
        int sent = data[0];
        int n = getInt(data, 1);
        int payload = data.length - HEADER;
        if (n == 0) {
            return 0;
        }
        if (sameElements(sent)) {
            if (codec.width > 0 && (long) n * codec.width != payload) {
                throw new MPIException(MPI.ERR_INTERN, "a damaged message: " + n + " elements of " + baseName(sent)
                        + " in " + payload + " bytes");
            }
            return n;
        }
        if (base == PACKED_TYPE) {
            return payload;
        }
        if (sent == PACKED_TYPE && codec != null) {
            if (codec.isObject()) {
                if (payload < 8 || getInt(data, HEADER) != payload - 8) {
                    throw new MPIException(MPI.ERR_TYPE, "a PACKED message received as MPI.OBJECT must hold exactly"
                            + " one Pack call's objects; its " + payload + " bytes do not");
                }
                return getInt(data, HEADER + 4);
            }
            if (payload % codec.width != 0) {
                throw new MPIException(MPI.ERR_TYPE, "a PACKED message of " + payload + " bytes is not a whole number"
                        + " of " + baseName(base) + " elements (" + codec.width + " bytes each)");
            }
            return payload / codec.width;
        }
        throw new MPIException(MPI.ERR_TYPE, "the message holds " + baseName(sent) + " data but " + this
                + " has base type " + baseName(base));
    }

    /**
     * Bytes that {@link #packInto} needs for {@code count} items ({@code Comm.Pack_size}); exact for
     * primitive base types.
     *
     * @throws MPIException ERR_TYPE for MPI.OBJECT, whose packed size depends on the objects (as in
     *     mpiJava, where Pack_size of OBJECT is an error); ERR_COUNT if {@code count} is negative
     */
    int packSize(int count) throws MPIException {
        live();
        nonNegative(count, "count", MPI.ERR_COUNT);
        if (codec == null || size == 0) {
            return 0;
        }
        if (codec.isObject()) {
            throw new MPIException(MPI.ERR_TYPE, "Pack_size is undefined for " + this + ": the packed size of"
                    + " objects depends on the objects; pack into a generous buffer and check the returned position");
        }
        long bytes = (long) count * size * codec.width;
        if (bytes > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, count + " items of " + this + " need " + bytes
                    + " bytes, more than a Java array holds");
        }
        return (int) bytes;
    }

    /**
     * Packs {@code incount} items of {@code inbuf} from {@code offset} into {@code outbuf} at
     * {@code position} ({@code Comm.Pack}) and returns the position after them. Primitives are
     * written raw, so successive Pack calls of one type may be unpacked in other splits; OBJECT
     * items form one unit that a single Unpack of the same items reads.
     *
     * @throws MPIException ERR_TRUNCATE if {@code outbuf} is too small, or as {@link #check}
     */
    int packInto(Object inbuf, int offset, int incount, byte[] outbuf, int position) throws MPIException {
        TypeBuffer view = access(inbuf, offset, incount);
        position(outbuf, position);
        WirePayload payload = payload(view, offset, incount, elements(incount));
        int bytes = payload.bodySize();
        if ((long) position + bytes > outbuf.length) {
            throw new MPIException(MPI.ERR_TRUNCATE, "Pack needs " + bytes + " bytes at position " + position
                    + " but the output buffer has " + outbuf.length + " bytes");
        }
        payload.write(HEADER, ByteBuffer.wrap(outbuf, position, bytes));
        return position + bytes;
    }

    /**
     * Unpacks {@code outcount} items, as {@link #packInto} wrote them, from {@code inbuf} at
     * {@code position} into {@code outbuf} from {@code offset} ({@code Comm.Unpack}) and returns the
     * position after them.
     *
     * @throws MPIException ERR_TRUNCATE if {@code inbuf} ends before the items do or (OBJECT) its
     *     unit holds more objects than {@code outcount} items take, or as {@link #check}
     */
    int unpackFrom(byte[] inbuf, int position, Object outbuf, int offset, int outcount) throws MPIException {
        TypeBuffer view = access(outbuf, offset, outcount);
        position(inbuf, position);
        int capacity = elements(outcount);
        if (codec == null) {
            return position;
        }
        int n = capacity;
        long end = position + (long) capacity * codec.width;
        if (codec.isObject()) {
            if (inbuf.length - position < 8) {
                throw new MPIException(MPI.ERR_TRUNCATE, "Unpack of " + this + " at position " + position
                        + " finds no packed objects: the input buffer has " + inbuf.length + " bytes");
            }
            end = position + 8L + getInt(inbuf, position);
            n = getInt(inbuf, position + 4);
            if (n > capacity) {
                throw new MPIException(MPI.ERR_TRUNCATE, "Unpack at position " + position + " finds " + n
                        + " packed objects but " + outcount + " items of " + this + " take " + capacity);
            }
        }
        if (end > inbuf.length) {
            throw new MPIException(MPI.ERR_TRUNCATE, "Unpack of " + outcount + " items of " + this + " at position "
                    + position + " needs " + (end - position) + " bytes but the input buffer has " + inbuf.length);
        }
        decode(inbuf, position, n, view, offset, outcount);
        return (int) end;
    }

    /**
     * A fresh 1-D buffer of the base type in which {@code count} items fit from offset 0, gaps of
     * the type map included (for collectives' temporaries). A type whose data lies at negative
     * displacements needs a positive offset into it, which this does not provide.
     */
    Object allocate(int count) {
        if (codec == null) {
            return new byte[0];
        }
        if (count == 0 || size == 0) {
            return codec.newArray(0);
        }
        long extent = (long) ub - lb;
        long length = Math.max(0, (count - 1) * extent) + dataEnd;
        return codec.newArray((int) Math.max(0, length));
    }

    /** Whether {@code count} items are one run of consecutive elements, so no gathering is needed. */
    boolean isRun(int count) {
        return disp.length == 1 && (count <= 1 || len[0] == ub - lb);
    }

    static String baseName(int code) {
        return code >= 0 && code < NAMES.length ? "MPI." + NAMES[code] : "no base type";
    }

    // ---------------------------------------------------------------- internals

    private static Datatype derived(String name, TypeMap map) throws MPIException {
        map.finish();
        return new Datatype(name, map, false);
    }

    private static Datatype vector(String what, int count, int blocklength, int stride, Datatype oldtype,
            boolean strideInExtents) throws MPIException {
        usable(oldtype, "oldtype");
        nonNegative(count, "count", MPI.ERR_COUNT);
        nonNegative(blocklength, "blocklength", MPI.ERR_ARG);
        long unit = strideInExtents ? (long) oldtype.ub - oldtype.lb : 1;
        TypeMap map = new TypeMap();
        for (int i = 0; i < count; i++) {
            map.add(i * (long) stride * unit, blocklength, oldtype);
        }
        return derived(what + "(" + count + ", " + blocklength + ", " + stride + ", " + oldtype + ")", map);
    }

    private static Datatype indexed(String what, int[] blocklengths, int[] displacements, Datatype oldtype,
            boolean displacementsInExtents) throws MPIException {
        blocks(blocklengths, displacements);
        usable(oldtype, "oldtype");
        long unit = displacementsInExtents ? (long) oldtype.ub - oldtype.lb : 1;
        TypeMap map = new TypeMap();
        for (int i = 0; i < blocklengths.length; i++) {
            map.add(displacements[i] * unit, blocklengths[i], oldtype);
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
            nonNegative(blocklengths[i], "array_of_blocklengths[" + i + "]", MPI.ERR_ARG);
        }
    }

    private static void usable(Datatype type, String what) throws MPIException {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, what + " is null");
        }
        type.live();
    }

    private static void nonNegative(int value, String what, int errorClass) throws MPIException {
        if (value < 0) {
            throw new MPIException(errorClass, what + " is " + value + "; it must not be negative");
        }
    }

    private void live() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_TYPE, "datatype " + name + " has been freed");
        }
    }

    /**
     * The checks of {@link #check}; returns the flattened buffer, or null when no data is accessed.
     */
    private TypeBuffer access(Object buf, int offset, int count) throws MPIException {
        live();
        if (!committed) {
            throw new MPIException(MPI.ERR_TYPE, "datatype " + name + " is not committed: call Commit() on it"
                    + " before using it to communicate, as MPI requires");
        }
        nonNegative(count, "count", MPI.ERR_COUNT);
        long n = (long) count * size;
        if (n > Integer.MAX_VALUE) {
            throw new MPIException(MPI.ERR_COUNT, count + " items of " + this + " are " + n
                    + " base elements, more than a Java array holds");
        }
        if (n == 0) {
            return null;
        }
        TypeBuffer view = TypeBuffer.of(buf, codec, this);
        long extent = (long) ub - lb;
        long first = offset;
        long last = offset + (count - 1) * extent;
        long low = Math.min(first, last) + dataMin;
        long high = Math.max(first, last) + dataEnd;
        if (low < 0 || high > view.length) {
            throw new MPIException(MPI.ERR_BUFFER, "offset " + offset + " and count " + count + " of " + this
                    + " reach buffer elements " + low + " to " + (high - 1) + ", but the buffer ("
                    + buf.getClass().getTypeName() + ") has " + view.length + " elements");
        }
        return view;
    }

    private static void position(byte[] packed, int position) throws MPIException {
        if (packed == null) {
            throw new MPIException(MPI.ERR_BUFFER, "the packing buffer is null; Pack and Unpack need a byte[]");
        }
        if (position < 0 || position > packed.length) {
            throw new MPIException(MPI.ERR_ARG, "position " + position + " is outside the packing buffer, which has "
                    + packed.length + " bytes");
        }
    }

    /** Calls {@code block} for each run of the first {@code limit} elements of {@code count} items. */
    private void walk(int offset, int count, int limit, Block block) {
        if (isRun(count)) {
            block.at(offset + disp[0], 0, limit);
            return;
        }
        int done = 0;
        int extent = ub - lb;
        for (int i = 0; i < count; i++) {
            int item = offset + i * extent;
            for (int b = 0; b < disp.length; b++) {
                int n = Math.min(len[b], limit - done);
                block.at(item + disp[b], done, n);
                done += n;
                if (done == limit) {
                    return;
                }
            }
        }
    }

    @FunctionalInterface
    private interface Block {
        /** {@code n} elements from flattened buffer index {@code at} correspond to {@code n} from {@code pos} of the message. */
        void at(int at, int pos, int n);
    }

    /** The first {@code n} elements of the items as one contiguous slice, ready to encode. */
    private WirePayload payload(TypeBuffer view, int offset, int count, int n) throws MPIException {
        if (codec == null) {
            return new WirePayload(base, null, null, 0, 0, null);
        }
        Object array;
        int from = 0;
        Object row = n > 0 && isRun(count) ? view.rowHolding(offset + disp[0], n) : null;
        if (row != null) {
            array = row;
            from = view.indexInRow(offset + disp[0]);
        } else {
            Object gathered = codec.newArray(n);
            if (n > 0) {
                walk(offset, count, n, (at, pos, len) -> view.transfer(at, gathered, pos, len, false));
            }
            array = gathered;
        }
        byte[] objects = codec.isObject() ? TypeObjects.serialize((Object[]) array, from, n) : null;
        return new WirePayload(base, codec, array, from, n, objects);
    }

    /** Writes {@code n} elements whose wire form starts at {@code data[pos]} into the items. */
    private void decode(byte[] data, int pos, int n, TypeBuffer view, int offset, int count) throws MPIException {
        if (n == 0 || codec == null) {
            return;
        }
        Object elements;
        if (codec.isObject()) {
            elements = TypeObjects.deserialize(data, pos + 8, getInt(data, pos), n);
            assignable((Object[]) elements, view);
        } else {
            Object row = isRun(count) ? view.rowHolding(offset + disp[0], n) : null;
            if (row != null) {
                codec.decode(ByteBuffer.wrap(data, pos, n * codec.width), row, view.indexInRow(offset + disp[0]), n);
                return;
            }
            elements = codec.newArray(n);
            codec.decode(ByteBuffer.wrap(data, pos, n * codec.width), elements, 0, n);
        }
        Object decoded = elements;
        walk(offset, count, n, (at, p, len) -> view.transfer(at, decoded, p, len, true));
    }

    // Checked before anything is written, so a mismatch leaves the buffer untouched rather than half filled.
    private static void assignable(Object[] objects, TypeBuffer view) throws MPIException {
        Class<?> component = view.component();
        for (int i = 0; i < objects.length; i++) {
            if (objects[i] != null && !component.isInstance(objects[i])) {
                throw new MPIException(MPI.ERR_TYPE, "received object " + i + " is a " + objects[i].getClass().getName()
                        + ", which the receive buffer (" + component.getName() + "[]) cannot hold");
            }
        }
    }

    /** Whether a message of base type {@code sent} holds this type's elements as they are (PACKED and BYTE mix). */
    private boolean sameElements(int sent) {
        return codec != null && (sent == base || (bytes(sent) && bytes(base)));
    }

    private static boolean bytes(int code) {
        return code == BYTE_TYPE || code == PACKED_TYPE;
    }

    private static String list(int[] values) {
        return values.length <= 8 ? Arrays.toString(values)
                : Arrays.toString(Arrays.copyOf(values, 8)).replace("]", ", ... (" + values.length + ")]");
    }

    private static String list(Datatype[] types) {
        return types.length <= 8 ? Arrays.toString(types)
                : Arrays.toString(Arrays.copyOf(types, 8)).replace("]", ", ... (" + types.length + ")]");
    }

    private static int getInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }
}
