package mpi;

import dev.distvm.mpi.engine.Payload;
import java.nio.ByteBuffer;

/**
 * What the {@code mpi} layer asks of a datatype, behind the mpiJava {@code mpi.Datatype}: its type
 * map flattened to runs of base elements, whether it is committed or freed, and how {@code count}
 * items of it are checked against a buffer, written to the wire form
 * ({@code [base type][element count][elements]}, {@link WirePayload}) and read back from it.
 * Offsets, displacements and bounds are counted in base elements, as everywhere in mpiJava.
 */
final class TypeLayout {
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

    /** The layout of a finished {@code map}; a predefined one is committed and cannot be freed. */
    public TypeLayout(String name, TypeMap map, boolean predefined) {
        this.name = name;
        this.base = map.base;
        this.codec = BaseType.codec(map.base);
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

    /** Lower bound in base elements. */
    public int lb() {
        return lb;
    }

    /** Upper bound in base elements. */
    public int ub() {
        return ub;
    }

    /** Base elements of data in one item. */
    public int size() {
        return size;
    }

    /** The base type code as declared: unlike {@link #baseType()}, keeps PACKED apart from BYTE. */
    public int base() {
        return base;
    }

    /** Displacement of the first run of data, where an item that {@link #isRun is one run} starts. */
    public int firstDisplacement() {
        return disp[0];
    }

    /** Lets communication use the type ({@code Commit}); harmless twice. */
    public void commit() throws MPIException {
        live();
        committed = true;
    }

    /** The type can no longer be used ({@code Free}); types built from it stay valid. */
    public void free() throws MPIException {
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

    /**
     * The base type code; {@code BaseType.PACKED} is reported as {@code BaseType.BYTE} since its buffers are
     * {@code byte[]}, and a type without data (only bound markers) gives {@link #BaseType.NONE}.
     */
    public int baseType() {
        return base == BaseType.PACKED ? BaseType.BYTE : base;
    }

    /** Base elements of data in {@code count} items. */
    public int elements(int count) {
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
    public void check(Object buf, int offset, int count) throws MPIException {
        access(buf, offset, count);
    }

    /**
     * The wire form of {@code count} items of {@code buf} from {@code offset}: a {@link WirePayload#HEADER}
     * (base type code, element count) and then the payload that {@link #packInto} would write.
     */
    public byte[] pack(Object buf, int offset, int count) throws MPIException {
        return outgoing(buf, offset, count).toArray();
    }

    /** The wire form of {@link #pack}, to be encoded straight from {@code buf} where the items are one run of one row. */
    public Payload outgoing(Object buf, int offset, int count) throws MPIException {
        return payload(access(buf, offset, count), offset, count, elements(count));
    }

    /**
     * A decoder of a message straight into {@code count} items of {@code buf} from {@code offset}
     * as it arrives, or null when the message must be {@link #unpack unpacked} whole: when it is
     * OBJECT, or does not fit this type (another base type, more elements than the items take: the
     * errors that unpack reports), or the items are not one run of one row. {@code first} holds
     * the message's first {@code min(length, ReceiveBuffer.PEEK)} bytes from its position, which stays put.
     */
    public RowDecoder decoder(Object buf, int offset, int count, int length, ByteBuffer first) {
        if (length < WirePayload.HEADER || codec == null || codec.isObject()) {
            return null;
        }
        int sent = first.get(first.position());
        int n = first.getInt(first.position() + 1);
        if (!sameElements(sent) || n > elements(count) || (long) n * codec.width != length - WirePayload.HEADER || !isRun(count)) {
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
    public int unpack(byte[] data, Object buf, int offset, int count) throws MPIException {
        TypeBuffer view = access(buf, offset, count);
        if (data == null || data.length == 0) {
            return 0;
        }
        int n = messageElements(data);
        int capacity = elements(count);
        if (n > capacity) {
            throw new MPIException(MPI.ERR_TRUNCATE, "message truncated: it holds " + n + " base elements of "
                    + BaseType.name(data[0]) + " but the receive buffer takes " + capacity + " (" + count + " items of "
                    + this + ")");
        }
        decode(data, WirePayload.HEADER, n, view, offset, count);
        return n;
    }

    /**
     * How many base elements of this datatype a message made by {@link #pack} holds, as
     * {@link #unpack} would write them; for {@code Status.Get_count}/{@code Get_elements} before
     * the data is received.
     *
     * @throws MPIException ERR_TYPE if the message's base type does not match this one's
     */
    public int messageElements(byte[] data) throws MPIException {
        if (data == null || data.length == 0) {
            return 0;
        }
        if (data.length < WirePayload.HEADER) {
            throw new MPIException(MPI.ERR_INTERN, "a message of " + data.length + " bytes is shorter than its header");
        }
        int sent = data[0];
        int n = getInt(data, 1);
        int payload = data.length - WirePayload.HEADER;
        if (n == 0) {
            return 0;
        }
        if (n < 0) {
            throw new MPIException(MPI.ERR_INTERN, "a damaged message: a count of " + n + " elements");
        }
        if (sameElements(sent)) {
            boolean fits = codec.isObject() ? payload >= 8 && getInt(data, WirePayload.HEADER) == payload - 8
                    : (long) n * codec.width == payload;
            if (!fits) {
                throw new MPIException(MPI.ERR_INTERN, "a damaged message: " + n + " elements of " + BaseType.name(sent)
                        + " in " + payload + " bytes");
            }
            return n;
        }
        if (base == BaseType.PACKED) {
            return payload;
        }
        if (sent == BaseType.PACKED && codec != null) {
            if (codec.isObject()) {
                if (payload < 8 || getInt(data, WirePayload.HEADER) != payload - 8) {
                    throw new MPIException(MPI.ERR_TYPE, "a PACKED message received as MPI.OBJECT must hold exactly"
                            + " one Pack call's objects; its " + payload + " bytes do not");
                }
                int objects = getInt(data, WirePayload.HEADER + 4);
                if (objects < 0) {
                    throw new MPIException(MPI.ERR_TYPE, "a damaged PACKED message: a count of " + objects + " objects");
                }
                return objects;
            }
            if (payload % codec.width != 0) {
                throw new MPIException(MPI.ERR_TYPE, "a PACKED message of " + payload + " bytes is not a whole number"
                        + " of " + BaseType.name(base) + " elements (" + codec.width + " bytes each)");
            }
            return payload / codec.width;
        }
        throw new MPIException(MPI.ERR_TYPE, "the message holds " + BaseType.name(sent) + " data but " + this
                + " has base type " + BaseType.name(base));
    }

    /**
     * Bytes that {@link #packInto} needs for {@code count} items ({@code Comm.Pack_size}); exact for
     * primitive base types.
     *
     * @throws MPIException ERR_TYPE for MPI.OBJECT, whose packed size depends on the objects (as in
     *     mpiJava, where Pack_size of OBJECT is an error); ERR_COUNT if {@code count} is negative
     */
    public int packSize(int count) throws MPIException {
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
    public int packInto(Object inbuf, int offset, int incount, byte[] outbuf, int position) throws MPIException {
        TypeBuffer view = access(inbuf, offset, incount);
        position(outbuf, position);
        WirePayload payload = payload(view, offset, incount, elements(incount));
        int bytes = payload.bodySize();
        if ((long) position + bytes > outbuf.length) {
            throw new MPIException(MPI.ERR_TRUNCATE, "Pack needs " + bytes + " bytes at position " + position
                    + " but the output buffer has " + outbuf.length + " bytes");
        }
        payload.write(WirePayload.HEADER, ByteBuffer.wrap(outbuf, position, bytes));
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
    public int unpackFrom(byte[] inbuf, int position, Object outbuf, int offset, int outcount) throws MPIException {
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
            int length = getInt(inbuf, position);
            end = position + 8L + length;
            n = getInt(inbuf, position + 4);
            if (length < 0 || n < 0) {
                throw new MPIException(MPI.ERR_TRUNCATE, "Unpack at position " + position + " finds a damaged unit of"
                        + " packed objects: " + n + " objects in " + length + " bytes");
            }
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
    public Object allocate(int count) {
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
    public boolean isRun(int count) {
        return disp.length == 1 && (count <= 1 || len[0] == ub - lb);
    }

    /** The argument check that mpiJava calls share: {@code value} must not be negative, else {@code errorClass}. */
    public static void nonNegative(int value, String what, int errorClass) throws MPIException {
        if (value < 0) {
            throw new MPIException(errorClass, what + " is " + value + "; it must not be negative");
        }
    }

    /** @throws MPIException ERR_TYPE if the datatype was freed */
    public void live() throws MPIException {
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
        return codec != null && (sent == base || (BaseType.bytes(sent) && BaseType.bytes(base)));
    }

    private static int getInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }
}
