package dev.distvm.objectspace;

import dev.distvm.objectspace.Twin.Change;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what {@link WireWriter} wrote: first every holder the message carries whole (created or
 * found locally, then filled, so references between them resolve), then the body. Sizes are
 * bounded by the message; an unknown tag or id fails the read rather than guessing, and a message
 * cut short fails it with a {@link java.nio.BufferUnderflowException}.
 */
final class WireReader {
    /**
     * A holder the message carried whole, with the values it arrived with, and the sender's lease
     * that holds its monitor from the start ({@link Holders#NO_LEASE} if none).
     */
    record Arrived(long id, Object holder, Object[] values, int leaseFromBirth) {}

    private final Holders holders;
    private final ClassLoader loader;
    private final ByteBuffer in;
    private final List<Arrived> arrived = new ArrayList<>();
    private final long sequence;
    private final long acknowledged;

    /** Reads {@code message} (index 0 its first byte; not copied, and not to be changed while this reads it). */
    WireReader(Holders holders, ClassLoader loader, ByteBuffer message) {
        this.holders = holders;
        this.loader = loader;
        this.in = message.duplicate();
        sequence = sequenceOf(in);
        acknowledged = in.getLong(Long.BYTES);
        int bodyLength = in.getInt(2 * Long.BYTES);
        if (bodyLength < 0 || bodyLength > in.limit() - WireWriter.BODY_START) {
            throw new IllegalArgumentException("object-space message: a body of " + bodyLength + " bytes does not fit the message");
        }
        int bodyEnd = WireWriter.BODY_START + bodyLength;
        in.position(bodyEnd);
        readHolders();
        in.limit(bodyEnd).position(WireWriter.BODY_START);
    }

    /**
     * A message's first number (see {@link WireWriter#finish(long, long)}), read without decoding
     * anything else: a worker applies the home's messages in this order, which it must know before
     * it creates the holders a message carries.
     */
    static long sequenceOf(ByteBuffer message) {
        if (message.limit() < WireWriter.BODY_START) {
            throw new IllegalArgumentException("object-space message of " + message.limit() + " bytes has no numbers");
        }
        return message.getLong(0);
    }

    /** From the home: its number for this message; from a worker: the release's number, or 0. */
    long sequence() {
        return sequence;
    }

    /** From the home: how many of the receiving worker's releases it had applied when it wrote this. */
    long acknowledged() {
        return acknowledged;
    }

    /** The holders carried whole, in message order; the caller decides how to install them. */
    List<Arrived> arrived() {
        return arrived;
    }

    /** The message's own fields, in the order its writer put them ({@link WireWriter#body()}). */
    ByteBuffer body() {
        return in;
    }

    /** A string the writer appended with {@code WireBuffer.appendString}. */
    String string() {
        return string(in);
    }

    Object value() {
        return read();
    }

    /** The loader that classes named by the message are loaded with. */
    ClassLoader loader() {
        return loader;
    }

    Object ref() {
        return resolve(in.getLong());
    }

    /** [id][count]([slot][value])*, as {@link WireWriter#changes} wrote it; returns the holder's id. */
    long changes(List<Change> into) {
        long id = in.getLong();
        int count = in.getInt();
        bounded(in, count);
        for (int i = 0; i < count; i++) {
            into.add(new Change(in.getInt(), read()));
        }
        return id;
    }

    /** [int length][UTF-8 bytes], or [int -chars][UTF-16 chars], as {@code WireBuffer.appendString} wrote it. */
    static String string(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 && length != Integer.MIN_VALUE) {
            int chars = -length;
            bounded(in, 2 * chars);
            char[] text = new char[chars];
            in.asCharBuffer().get(text);
            in.position(in.position() + 2 * chars);
            return new String(text);
        }
        bounded(in, length);
        byte[] utf8 = new byte[length];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private void readHolders() {
        int count = in.getInt();
        bounded(in, count);
        long[] ids = new long[count];
        Holders.Kind[] kinds = new Holders.Kind[count];
        Class<?>[] types = new Class<?>[count];
        int[] lengths = new int[count];
        int[] identityHashes = new int[count];
        int[] leasesFromBirth = new int[count];
        ThreadCopies.Identity[] threads = new ThreadCopies.Identity[count];
        Object[] created = new Object[count];
        boolean[] isNew = new boolean[count];
        long leastStateBytes = 0;
        long onDemandBytes = 0;
        for (int i = 0; i < count; i++) {
            ids[i] = in.getLong();
            created[i] = holders.byId(ids[i]);
            isNew[i] = created[i] == null;
            int kind = Byte.toUnsignedInt(in.get());
            boolean onDemand = (kind & WireWriter.ON_DEMAND) != 0;
            kinds[i] = Holders.Kind.values()[(kind & ~WireWriter.ON_DEMAND) % Holders.Kind.values().length];
            String className = string(in);
            // Holders of a message are mostly of a few classes (the rows of a matrix): one look-up each.
            types[i] = i > 0 && className.equals(types[i - 1].getName()) ? types[i - 1] : load(className);
            if (types[i].isArray() != (kinds[i] == Holders.Kind.ARRAY)
                    || onDemand && !(types[i].isArray() && types[i].getComponentType().isPrimitive())) {
                throw new IllegalArgumentException("object-space message: a holder of kind " + kinds[i] + " and class "
                        + types[i].getName() + (onDemand ? " on demand" : ""));
            }
            lengths[i] = kinds[i] == Holders.Kind.ARRAY ? in.getInt() : 0;
            if (onDemand && lengths[i] >= 0) {
                // Made without its values: the receiver's allowance bounds it, not the message.
                onDemandBytes += PrimitiveArrays.bytesOf(types[i].getComponentType(), lengths[i]);
                if (onDemandBytes > holders.onDemandAllowance()) {
                    throw new IllegalArgumentException("object-space message: arrays of " + onDemandBytes
                            + " bytes sent on demand, more than the " + holders.onDemandAllowance() + " this node accepts"
                            + " (half its largest heap: they and their twins must fit); give the workers a larger heap,"
                            + " JAVA_TOOL_OPTIONS=-Xmx... for the local ones");
                }
            }
            // The states follow the headers, each at least this long: all of them must fit what is
            // left, so that the holders made below stay within what the message justifies.
            leastStateBytes += onDemand ? AbsentChunks.chunks(Math.max(0, lengths[i])) : leastStateBytes(types[i], lengths[i]);
            if (lengths[i] < 0 || leastStateBytes > in.remaining()) {
                throw new IllegalArgumentException("object-space message: an array of " + lengths[i] + " does not fit the message");
            }
            identityHashes[i] = kinds[i] == Holders.Kind.STATICS ? 0 : in.getInt();
            leasesFromBirth[i] = kinds[i] == Holders.Kind.STATICS ? Holders.NO_LEASE : in.getInt();
            if (kinds[i] == Holders.Kind.OBJECT && Thread.class.isAssignableFrom(types[i])) {
                threads[i] = ThreadCopies.readIdentity(in);
            }
        }
        // The new instances first, back to back, and only then their bookkeeping: copies that a
        // program walks in order then lie in memory as they do at the home (interleaved with map
        // entries, reading a copied array of small objects was twice as slow as reading the home's).
        for (int i = 0; i < count; i++) {
            if (isNew[i]) {
                created[i] = Instances.create(kinds[i], types[i], lengths[i]);
                if (threads[i] != null) {
                    threads[i].giveTo((Thread) created[i]);
                    if (threads[i].endedOnWorker()) {
                        ThreadCopies.endedOnWorker((Thread) created[i]);
                    }
                }
            }
        }
        for (int i = 0; i < count; i++) {
            if (isNew[i]) {
                holders.adopt(ids[i], kinds[i], created[i], identityHashes[i]);
            }
        }
        for (int i = 0; i < count; i++) {
            int slots = in.getInt();
            bounded(in, slots);
            Object[] values = new Object[slots];
            for (int s = 0; s < slots; s++) {
                values[s] = read();
            }
            arrived.add(new Arrived(ids[i], created[i], values, leasesFromBirth[i]));
        }
    }

    /** A primitive array's state may leave its blocks of zeros out ({@link PrimitiveArrays#writeWhole}); any other takes a byte per element at least. */
    private static long leastStateBytes(Class<?> type, int length) {
        Class<?> component = type.getComponentType();
        if (component == null || length < 0) {
            return 0;
        }
        return component.isPrimitive() ? PrimitiveArrays.leastWholeBytes(component, length) : length;
    }

    private Object read() {
        int tag = Byte.toUnsignedInt(in.get());
        return switch (tag) {
            case WireWriter.NULL -> null;
            case WireWriter.BOOLEAN, WireWriter.BYTE, WireWriter.CHAR, WireWriter.SHORT, WireWriter.INT, WireWriter.LONG,
                    WireWriter.FLOAT, WireWriter.DOUBLE -> boxed(tag, in);
            case WireWriter.STRING -> string(in);
            case WireWriter.INTERNED_STRING -> string(in).intern();
            case WireWriter.CLASS -> load(string(in));
            // Without an id, a big number is the one valueOf caches (ValueIdentities.isCanonical).
            case WireWriter.BIG_INTEGER -> ValueIdentities.canonical(new BigInteger(bytes(in)));
            case WireWriter.BIG_DECIMAL -> ValueIdentities.canonical(bigDecimal(in));
            case WireWriter.ENUM -> enumConstant(string(in), string(in));
            case WireWriter.REF -> resolve(in.getLong());
            case WireWriter.IDENTIFIED -> identified(in.getLong());
            case WireWriter.CHUNK -> PrimitiveArrays.readWhole(in);
            case WireWriter.RUN -> MaskedRun.read(in);
            case WireWriter.LAMBDA -> Lambdas.read(this);
            case WireWriter.IMMUTABLE_COLLECTION -> immutableCollection();
            case WireWriter.THROWABLE -> UncaughtExceptions.read(in, loader);
            case WireWriter.ABSENT_CHUNKS -> new AbsentChunks.Flags(bytes(in));
            case WireWriter.CHANGED_CHUNKS -> new AbsentChunks.Changed(count(in));
            default -> throw new IllegalArgumentException("object-space message: unknown value tag " + tag);
        };
    }

    private Object immutableCollection() {
        int kind = in.get();
        int count = count(in);
        bounded(in, count);
        Object[] elements = new Object[count];
        for (int i = 0; i < count; i++) {
            elements[i] = read();
        }
        return ImmutableCollections.of(kind, elements);
    }

    private Object resolve(long id) {
        Object holder = holders.byId(id);
        if (holder == null) {
            throw new IllegalStateException("object-space message names object " + Long.toHexString(id)
                    + ", which this node does not have and the message does not carry");
        }
        return holder;
    }

    Class<?> load(String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("object-space message names class " + name + ", which is not found here ("
                    + e.getMessage() + ")", e);
        }
    }

    /** A primitive's box as {@code WireWriter.writeBoxed} wrote it after {@code tag}. */
    static Object boxed(int tag, ByteBuffer in) {
        return switch (tag) {
            case WireWriter.BOOLEAN -> in.get() != 0;
            case WireWriter.BYTE -> in.get();
            case WireWriter.CHAR -> in.getChar();
            case WireWriter.SHORT -> in.getShort();
            case WireWriter.INT -> in.getInt();
            case WireWriter.LONG -> in.getLong();
            case WireWriter.FLOAT -> in.getFloat();
            case WireWriter.DOUBLE -> in.getDouble();
            default -> throw new IllegalArgumentException("object-space message: value tag " + tag + " is not a primitive's");
        };
    }

    /**
     * A value that travels by value but keeps its identity ({@link ValueIdentities}): a string, a big
     * number, a box, an immutable collection, an exception.
     */
    private Object identified(long id) {
        int tag = Byte.toUnsignedInt(in.get());
        Object value = switch (tag) {
            case WireWriter.STRING -> string(in);
            case WireWriter.BIG_INTEGER -> new BigInteger(bytes(in)); // an empty magnitude throws NumberFormatException
            case WireWriter.BIG_DECIMAL -> bigDecimal(in);
            case WireWriter.BOOLEAN, WireWriter.BYTE, WireWriter.CHAR, WireWriter.SHORT, WireWriter.INT, WireWriter.LONG,
                    WireWriter.FLOAT, WireWriter.DOUBLE -> boxed(tag, in);
            case WireWriter.IMMUTABLE_COLLECTION -> immutableCollection();
            case WireWriter.THROWABLE -> UncaughtExceptions.read(in, loader);
            default -> throw new IllegalArgumentException("object-space message: value tag " + tag + " cannot carry an identity");
        };
        return ValueIdentities.arrived(id, value);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object enumConstant(String className, String name) {
        return Enum.valueOf((Class) load(className), name);
    }

    /** A count that need not fit the message (elements that stay at their home), but not a negative one. */
    private static int count(ByteBuffer in) {
        int count = in.getInt();
        if (count < 0) {
            throw new IllegalArgumentException("object-space message: a count of " + count);
        }
        return count;
    }

    /** [int scale][int length][the unscaled value's bytes]. */
    private static BigDecimal bigDecimal(ByteBuffer in) {
        int scale = in.getInt();
        return new BigDecimal(new BigInteger(bytes(in)), scale);
    }

    /** [int length][bytes]. */
    private static byte[] bytes(ByteBuffer in) {
        int length = in.getInt();
        bounded(in, length);
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    static void bounded(ByteBuffer in, int count) {
        // Every counted item takes at least one byte of what is left, so a larger count is a lie.
        if (count < 0 || count > in.remaining()) {
            throw new IllegalArgumentException("object-space message: a count of " + count + " does not fit the message");
        }
    }
}
