package dist.objectspace;

import dist.objectspace.Twin.Change;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Writes one object-space message: values, and the full state of every holder the message names
 * that the destination does not have yet (found transitively, so the destination never sees an id
 * it cannot resolve). Layout: [sequence][acknowledged][holder count][headers][holder states][body]. Strings, boxed values
 * and classes travel by value; application objects, arrays and class statics by id; any other JDK
 * object cannot be shared and stops the write with {@link UnsharableException}.
 */
final class WireWriter {
    static final int NULL = 0, BOOLEAN = 1, BYTE = 2, CHAR = 3, SHORT = 4, INT = 5, LONG = 6, FLOAT = 7,
            DOUBLE = 8, STRING = 9, CLASS = 10, REF = 11, ENUM = 12, CHUNK = 13, RUN = 14;

    private final Holders holders;
    private final ByteArrayOutputStream bodyBytes = new ByteArrayOutputStream();
    private final DataOutputStream body = new DataOutputStream(bodyBytes);
    private final ByteArrayOutputStream stateBytes = new ByteArrayOutputStream();
    private final DataOutputStream states = new DataOutputStream(stateBytes);
    private final ByteArrayOutputStream headerBytes = new ByteArrayOutputStream();
    private final DataOutputStream headers = new DataOutputStream(headerBytes);
    private final Deque<Object[]> pending = new ArrayDeque<>();
    private final List<Object> shared = new ArrayList<>();
    private int holderCount;

    WireWriter(Holders holders) {
        this.holders = holders;
    }

    /** The holders this message shared for the first time, in the order it met them. */
    List<Object> newlyShared() {
        return shared;
    }

    DataOutputStream body() {
        return body;
    }

    void value(Object value) {
        try {
            write(body, value);
            drain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void ref(Object holder) {
        try {
            body.writeLong(idFor(holder));
            drain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A holder's changed slots: [id][count]([slot][value])*; chunks of a primitive array in bulk. */
    void changes(long id, List<Change> changes, boolean inChunks) {
        try {
            body.writeLong(id);
            body.writeInt(changes.size());
            for (Change change : changes) {
                body.writeInt(change.slot());
                writeSlotValue(body, change.value(), inChunks);
            }
            drain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The message of one that is neither a home message nor a release: both numbers 0 (see {@link #finish(long, long)}). */
    byte[] finish() {
        return finish(0, 0);
    }

    /**
     * The message's bytes, led by its two numbers, which a receiver reads before anything else (see
     * {@link WireReader#sequenceOf}): from the home, its number in the stream of messages to that
     * worker and how many of that worker's releases it had applied when it wrote it; from a worker,
     * the release's number in that worker's stream of releases (0 when it is not a release) and 0.
     */
    byte[] finish(long sequence, long acknowledged) {
        try {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(all);
            out.writeLong(sequence);
            out.writeLong(acknowledged);
            out.writeInt(holderCount);
            headerBytes.writeTo(out);
            stateBytes.writeTo(out);
            bodyBytes.writeTo(out);
            out.flush();
            return all.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void drain() throws IOException {
        while (!pending.isEmpty()) {
            Object[] entry = pending.poll();
            Twin twin = (Twin) entry[1];
            Object[] values = twin.state();
            states.writeInt(values.length);
            for (Object v : values) {
                writeSlotValue(states, v, twin.inChunks());
            }
        }
    }

    private long idFor(Object holder) throws IOException {
        Twin[] state = new Twin[1];
        long id = holders.share(holder, state);
        if (state[0] != null) {
            holderCount++;
            headers.writeLong(id);
            if (holder instanceof Class<?> c) {
                headers.writeByte(Holders.Kind.STATICS.ordinal());
                headers.writeUTF(c.getName());
            } else if (holder.getClass().isArray()) {
                headers.writeByte(Holders.Kind.ARRAY.ordinal());
                headers.writeUTF(holder.getClass().getName());
                headers.writeInt(java.lang.reflect.Array.getLength(holder));
                headers.writeInt(holders.identityHash(holder));
            } else {
                headers.writeByte(Holders.Kind.OBJECT.ordinal());
                headers.writeUTF(holder.getClass().getName());
                headers.writeInt(holders.identityHash(holder));
            }
            pending.add(new Object[] {holder, state[0]});
            shared.add(holder);
        }
        return id;
    }

    private void writeSlotValue(DataOutputStream out, Object value, boolean chunk) throws IOException {
        if (value instanceof MaskedRun run) {
            out.writeByte(RUN);
            run.write(out);
        } else if (chunk) {
            out.writeByte(CHUNK);
            PrimitiveArrays.write(out, value);
        } else {
            write(out, value);
        }
    }

    private void write(DataOutputStream out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof Integer v) {
            out.writeByte(INT);
            out.writeInt(v);
        } else if (value instanceof Double v) {
            out.writeByte(DOUBLE);
            out.writeDouble(v);
        } else if (value instanceof Long v) {
            out.writeByte(LONG);
            out.writeLong(v);
        } else if (value instanceof Boolean v) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(v);
        } else if (value instanceof Byte v) {
            out.writeByte(BYTE);
            out.writeByte(v);
        } else if (value instanceof Character v) {
            out.writeByte(CHAR);
            out.writeChar(v);
        } else if (value instanceof Short v) {
            out.writeByte(SHORT);
            out.writeShort(v);
        } else if (value instanceof Float v) {
            out.writeByte(FLOAT);
            out.writeFloat(v);
        } else if (value instanceof String v) {
            out.writeByte(STRING);
            writeString(out, v);
        } else if (value instanceof Class<?> v) {
            out.writeByte(CLASS);
            out.writeUTF(v.getName());
        } else if (value instanceof Enum<?> v && !Slots.isJdk(v.getDeclaringClass())) {
            // Enum constants exist on every node (their initializer runs everywhere): by name.
            out.writeByte(ENUM);
            out.writeUTF(v.getDeclaringClass().getName());
            out.writeUTF(v.name());
        } else if (value.getClass().isArray() || !Slots.isJdk(value.getClass())) {
            out.writeByte(REF);
            out.writeLong(idFor(value));
        } else {
            throw new UnsharableException(value.getClass(), "it is a JDK class, and dist shares only application objects, arrays, strings,"
                    + " boxed values, classes and enum constants");
        }
    }

    /** writeUTF is limited to 64 KiB; strings are not. */
    static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }
}
