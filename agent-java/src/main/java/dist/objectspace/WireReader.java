package dist.objectspace;

import dist.objectspace.Twin.Change;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what {@link WireWriter} wrote: first every holder the message carries whole (created or
 * found locally, then filled, so references between them resolve), then the body. Sizes are
 * bounded by the message; an unknown tag or id fails the read rather than guessing.
 */
final class WireReader {
    /** A holder the message carried whole, with the values it arrived with. */
    record Arrived(long id, Object holder, Object[] values) {}

    private final Holders holders;
    private final ClassLoader loader;
    private final DataInputStream in;
    private final List<Arrived> arrived = new ArrayList<>();
    private final long sequence;
    private final long acknowledged;

    WireReader(Holders holders, ClassLoader loader, byte[] message) {
        this.holders = holders;
        this.loader = loader;
        this.in = new DataInputStream(new ByteArrayInputStream(message));
        try {
            sequence = in.readLong();
            acknowledged = in.readLong();
            readHolders();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A message's first number (see {@link WireWriter#finish(long, long)}), read without decoding
     * anything else: a worker applies the home's messages in this order, which it must know before
     * it creates the holders a message carries.
     */
    static long sequenceOf(byte[] message) {
        if (message.length < 16) {
            throw new IllegalArgumentException("object-space message of " + message.length + " bytes has no numbers");
        }
        return java.nio.ByteBuffer.wrap(message).getLong();
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

    DataInputStream body() {
        return in;
    }

    Object value() {
        try {
            return read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Object ref() {
        try {
            return resolve(in.readLong());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** [id][count]([slot][value])*, as {@link WireWriter#changes} wrote it; returns the holder's id. */
    long changes(List<Change> into) {
        try {
            long id = in.readLong();
            int count = in.readInt();
            bounded(count);
            for (int i = 0; i < count; i++) {
                into.add(new Change(in.readInt(), read()));
            }
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void readHolders() throws IOException {
        int count = in.readInt();
        bounded(count);
        long[] ids = new long[count];
        Holders.Kind[] kinds = new Holders.Kind[count];
        Class<?>[] types = new Class<?>[count];
        int[] lengths = new int[count];
        int[] identityHashes = new int[count];
        Object[] created = new Object[count];
        boolean[] isNew = new boolean[count];
        for (int i = 0; i < count; i++) {
            ids[i] = in.readLong();
            created[i] = holders.byId(ids[i]);
            isNew[i] = created[i] == null;
            kinds[i] = Holders.Kind.values()[in.readUnsignedByte() % Holders.Kind.values().length];
            types[i] = load(in.readUTF());
            lengths[i] = kinds[i] == Holders.Kind.ARRAY ? in.readInt() : 0;
            bounded(lengths[i]);
            identityHashes[i] = kinds[i] == Holders.Kind.STATICS ? 0 : in.readInt();
        }
        // The new instances first, back to back, and only then their bookkeeping: copies that a
        // program walks in order then lie in memory as they do at the home (interleaved with map
        // entries, reading a copied array of small objects was twice as slow as reading the home's).
        for (int i = 0; i < count; i++) {
            if (isNew[i]) {
                created[i] = Instances.create(kinds[i], types[i], lengths[i]);
            }
        }
        for (int i = 0; i < count; i++) {
            if (isNew[i]) {
                holders.adopt(ids[i], kinds[i], created[i], identityHashes[i]);
            }
        }
        for (int i = 0; i < count; i++) {
            int slots = in.readInt();
            bounded(slots);
            Object[] values = new Object[slots];
            for (int s = 0; s < slots; s++) {
                values[s] = read();
            }
            arrived.add(new Arrived(ids[i], created[i], values));
        }
    }

    private Object read() throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case WireWriter.NULL -> null;
            case WireWriter.BOOLEAN -> in.readBoolean();
            case WireWriter.BYTE -> in.readByte();
            case WireWriter.CHAR -> in.readChar();
            case WireWriter.SHORT -> in.readShort();
            case WireWriter.INT -> in.readInt();
            case WireWriter.LONG -> in.readLong();
            case WireWriter.FLOAT -> in.readFloat();
            case WireWriter.DOUBLE -> in.readDouble();
            case WireWriter.STRING -> readString();
            case WireWriter.CLASS -> load(in.readUTF());
            case WireWriter.ENUM -> enumConstant(in.readUTF(), in.readUTF());
            case WireWriter.REF -> resolve(in.readLong());
            case WireWriter.CHUNK -> PrimitiveArrays.read(in);
            case WireWriter.RUN -> MaskedRun.read(in);
            default -> throw new IllegalArgumentException("object-space message: unknown value tag " + tag);
        };
    }

    private Object resolve(long id) {
        Object holder = holders.byId(id);
        if (holder == null) {
            throw new IllegalStateException("object-space message names object " + Long.toHexString(id)
                    + ", which this node does not have and the message does not carry");
        }
        return holder;
    }

    private String readString() throws IOException {
        int length = in.readInt();
        bounded(length);
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    Class<?> load(String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("object-space message names class " + name + ", which is not found here", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object enumConstant(String className, String name) {
        return Enum.valueOf((Class) load(className), name);
    }

    private void bounded(int count) throws IOException {
        // Every counted item takes at least one byte of what is left, so a larger count is a lie.
        if (count < 0 || count > in.available()) {
            throw new IOException("object-space message: a count of " + count + " does not fit the message");
        }
    }
}
