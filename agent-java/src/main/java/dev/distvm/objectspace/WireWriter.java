package dev.distvm.objectspace;

import dev.distvm.objectspace.Twin.Change;
import dev.distvm.transport.WireBuffer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes one object-space message: values, and the full state of every holder the message names
 * that the destination does not have yet (found transitively, so the destination never sees an id
 * it cannot resolve). Layout: [sequence][acknowledged][body length][body][holder count][headers][holder states];
 * a header is [id][kind][class name], then for an object or array [length, arrays only][identity
 * hash][the lease that holds its monitor from the start, {@link Holders#NO_LEASE} if none]. An array
 * sent on demand has {@link #ON_DEMAND} set on its kind, and its state is the flags of its absent
 * chunks ({@link #ABSENT_CHUNKS}) instead of its values.
 * The body is written straight into the buffer the transport sends, after room for the three
 * numbers; the holders, met while the body is written, are appended to it at the end (the reader
 * creates them before it reads the body). Strings, boxed values, {@code BigInteger} and {@code BigDecimal}, classes,
 * exceptions ({@link Throwables}) and the JDK's immutable collections ({@link ImmutableCollections}) travel by value;
 * application objects, arrays and class statics by id; any other JDK object cannot be shared and
 * stops the write with {@link UnsharableException}.
 */
final class WireWriter {
    static final int NULL = 0, BOOLEAN = 1, BYTE = 2, CHAR = 3, SHORT = 4, INT = 5, LONG = 6, FLOAT = 7,
            DOUBLE = 8, STRING = 9, CLASS = 10, REF = 11, ENUM = 12, CHUNK = 13, RUN = 14, LAMBDA = 15,
            INTERNED_STRING = 16, THROWABLE = 17, ABSENT_CHUNKS = 18, CHANGED_CHUNKS = 19, BIG_INTEGER = 20, BIG_DECIMAL = 21,
            IMMUTABLE_COLLECTION = 22, IDENTIFIED = 23;
    /** In a holder's header, on its kind: an array sent on demand, whose state is its absent chunks' flags. */
    static final int ON_DEMAND = 0x80;
    /** Where the body starts: after the sequence, the acknowledged count and the body's length. */
    static final int BODY_START = 2 * Long.BYTES + Integer.BYTES;

    private final Holders holders;
    private final WireBuffer message = new WireBuffer();
    private final WireBuffer headers = new WireBuffer();
    private final StateSegments states = new StateSegments();
    private final Deque<Object[]> pending = new ArrayDeque<>();
    private final List<Object> shared = new ArrayList<>();
    private int holderCount;

    WireWriter(Holders holders) {
        this.holders = holders;
        message.appendView(BODY_START); // the numbers, known when the message is finished
    }

    /** The holders this message shared for the first time, in the order it met them. */
    List<Object> newlyShared() {
        return shared;
    }

    /** Where the message's own fields go, in the order its reader takes them. */
    WireBuffer body() {
        return message;
    }

    void value(Object value) {
        write(message, value);
        drain();
    }

    void ref(Object holder) {
        message.appendLong(idFor(holder));
        drain();
    }

    /** A holder's changed slots: [id][count]([slot][value])*; chunks of a primitive array in bulk. */
    void changes(long id, List<Change> changes, Twin twin) {
        message.appendLong(id);
        message.appendInt(changes.size());
        for (Change change : changes) {
            message.appendInt(change.slot());
            writeSlotValue(message, change.value(), twin.inChunks(), twin.holdsReference(change.slot()));
        }
        drain();
    }

    /** The message of one that is neither a home message nor a release: both numbers 0 (see {@link #finish(long, long)}). */
    WireBuffer finish() {
        return finish(0, 0);
    }

    /**
     * The message, led by its two numbers, which a receiver reads before anything else (see
     * {@link WireReader#sequenceOf}): from the home, its number in the stream of messages to that
     * worker and how many of that worker's releases it had applied when it wrote it; from a worker,
     * the release's number in that worker's stream of releases (0 when it is not a release) and 0.
     */
    WireBuffer finish(long sequence, long acknowledged) {
        message.putLong(0, sequence);
        message.putLong(Long.BYTES, acknowledged);
        message.putInt(2 * Long.BYTES, message.length() - BODY_START);
        message.reserve((int) Math.min(Integer.MAX_VALUE, Integer.BYTES + headers.length() + states.length()));
        message.appendInt(holderCount);
        message.appendBytes(headers);
        states.appendTo(message);
        return message;
    }

    private void drain() {
        while (!pending.isEmpty()) {
            Object[] entry = pending.poll();
            if (entry[2] instanceof byte[] absentChunks) {
                WireBuffer out = states.room(Integer.BYTES * 2 + 1 + absentChunks.length);
                out.appendInt(1);
                out.appendByte((byte) ABSENT_CHUNKS);
                out.appendInt(absentChunks.length);
                out.appendBytes(absentChunks);
                continue;
            }
            Twin twin = (Twin) entry[1];
            Object[] values = twin.state();
            WireBuffer out = states.room(sizeAbout(values, twin.inChunks()));
            out.appendInt(values.length);
            for (int i = 0; i < values.length; i++) {
                writeSlotValue(out, values[i], twin.inChunks(), twin.holdsReference(i));
            }
        }
    }

    /** About how many bytes {@link #writeSlotValue} takes for these values: exact for a primitive array's. */
    private static long sizeAbout(Object[] values, boolean chunks) {
        long bytes = Integer.BYTES;
        for (Object v : values) {
            bytes += chunks ? 1 + PrimitiveArrays.wholeWireSize(v) : 16;
        }
        return bytes;
    }

    private long idFor(Object holder) {
        Holders.Pushed pushed = new Holders.Pushed();
        long id = holders.share(holder, pushed);
        if (pushed.state != null) {
            holderCount++;
            headers.appendLong(id);
            if (holder instanceof Class<?> c) {
                headers.appendByte((byte) Holders.Kind.STATICS.ordinal());
                headers.appendString(c.getName());
            } else if (holder.getClass().isArray()) {
                headers.appendByte((byte) (Holders.Kind.ARRAY.ordinal() | (pushed.absentChunks != null ? ON_DEMAND : 0)));
                headers.appendString(holder.getClass().getName());
                headers.appendInt(java.lang.reflect.Array.getLength(holder));
                headers.appendInt(holders.identityHash(holder));
                headers.appendInt(pushed.leaseFromBirth);
            } else {
                headers.appendByte((byte) Holders.Kind.OBJECT.ordinal());
                headers.appendString(holder.getClass().getName());
                headers.appendInt(holders.identityHash(holder));
                headers.appendInt(pushed.leaseFromBirth);
                if (holder instanceof Thread thread) {
                    ThreadCopies.writeIdentity(thread, headers);
                }
            }
            pending.add(new Object[] {holder, pushed.state, pushed.absentChunks});
            shared.add(holder);
        }
        return id;
    }

    /** {@code reference}: the slot holds the program's references, so a box in it is the program's object, whose identity counts. */
    private void writeSlotValue(WireBuffer out, Object value, boolean chunk, boolean reference) {
        if (value instanceof MaskedRun run) {
            out.appendByte((byte) RUN);
            run.write(out);
        } else if (value instanceof AbsentChunks.Changed changed) {
            out.appendByte((byte) CHANGED_CHUNKS);
            out.appendInt(changed.elements());
        } else if (chunk) {
            out.appendByte((byte) CHUNK);
            PrimitiveArrays.writeWhole(out, value);
        } else {
            if (reference && ValueIdentities.isUncachedBox(value)) {
                identified(out, value);
            }
            write(out, value);
        }
    }

    private void write(WireBuffer out, Object value) {
        if (value == null) {
            out.appendByte((byte) NULL);
        } else if (writeBoxed(out, value)) {
            return; // a primitive's box
        } else if (value instanceof String v) {
            // A string travels by value, but the pool's string (a literal's) stays the pool's where it
            // arrives, so that == with a literal there says what it says here (a sentinel compared by
            // identity). Asking the pool adds a string it lacks, as the program's own intern() would.
            // Any other keeps its identity by an id (ValueIdentities), and so does one that arrived
            // with an id: asked first, the pool here might take it for its own and send it as the pool's.
            boolean interned = !ValueIdentities.hasId(v) && v.intern() == v;
            if (!interned) {
                identified(out, v);
            }
            out.appendByte((byte) (interned ? INTERNED_STRING : STRING));
            out.appendString(v);
        } else if (value instanceof Class<?> v) {
            out.appendByte((byte) CLASS);
            out.appendString(v.getName());
        } else if (value.getClass() == BigInteger.class) {
            // Immutable values, as strings are (a subclass of either is an application object).
            identifiedUnlessCanonical(out, value);
            out.appendByte((byte) BIG_INTEGER);
            appendBytes(out, ((BigInteger) value).toByteArray());
        } else if (value.getClass() == BigDecimal.class) {
            identifiedUnlessCanonical(out, value);
            out.appendByte((byte) BIG_DECIMAL);
            out.appendInt(((BigDecimal) value).scale());
            appendBytes(out, ((BigDecimal) value).unscaledValue().toByteArray());
        } else if (value instanceof Enum<?> v) {
            // Enum constants exist on every node (their initializer runs everywhere): by name; so
            // each node has its own state of a constant that holds any. The JDK's too (a
            // DayOfWeek, a TimeUnit): the same constants on every node.
            PerNodeState.refuse(v);
            out.appendByte((byte) ENUM);
            out.appendString(v.getDeclaringClass().getName());
            out.appendString(v.name());
        } else if (Lambdas.isLambda(value)) {
            // By what it is, made again where it arrives; what it captured as any value.
            out.appendByte((byte) LAMBDA);
            java.lang.invoke.SerializedLambda form = Lambdas.write(out, value);
            boolean[] references = Lambdas.capturedReferences(form);
            for (int i = 0; i < form.getCapturedArgCount(); i++) {
                writeSlotValue(out, form.getCapturedArg(i), false, references[i]);
            }
        } else if (value instanceof Throwable thrown) {
            if (!Throwables.travelsByValue(thrown)) {
                throw Throwables.refusal(thrown.getClass());
            }
            identified(out, thrown);
            out.appendByte((byte) THROWABLE);
            UncaughtExceptions.write(thrown, out, holders.loader());
        } else if (isHolder(value)) {
            out.appendByte((byte) REF);
            out.appendLong(idFor(value));
        } else if (ImmutableCollections.is(value)) { // a JDK class: after the holders, the common case
            List<Object> elements = ImmutableCollections.elements(value);
            if (!elements.isEmpty()) { // an empty one is the JDK's single instance on every node
                identified(out, value);
            }
            out.appendByte((byte) IMMUTABLE_COLLECTION);
            out.appendByte((byte) ImmutableCollections.kind(value));
            out.appendInt(elements.size());
            for (Object element : elements) {
                write(out, element);
            }
        } else {
            throw jdkObject(value.getClass());
        }
    }

    /** [int length][bytes], as {@link WireReader} reads them. */
    private static void appendBytes(WireBuffer out, byte[] bytes) {
        out.appendInt(bytes.length);
        out.appendBytes(bytes);
    }

    /** A primitive's box as [tag][value], returning true; anything else writes nothing and returns false. */
    static boolean writeBoxed(WireBuffer out, Object value) {
        if (value instanceof Integer v) {
            out.appendByte((byte) INT);
            out.appendInt(v);
        } else if (value instanceof Double v) {
            out.appendByte((byte) DOUBLE);
            out.appendDouble(v);
        } else if (value instanceof Long v) {
            out.appendByte((byte) LONG);
            out.appendLong(v);
        } else if (value instanceof Boolean v) {
            out.appendByte((byte) BOOLEAN);
            out.appendBoolean(v);
        } else if (value instanceof Byte v) {
            out.appendByte((byte) BYTE);
            out.appendByte(v);
        } else if (value instanceof Character v) {
            out.appendByte((byte) CHAR);
            out.appendShort((short) v.charValue());
        } else if (value instanceof Short v) {
            out.appendByte((byte) SHORT);
            out.appendShort(v);
        } else if (value instanceof Float v) {
            out.appendByte((byte) FLOAT);
            out.appendFloat(v);
        } else {
            return false;
        }
        return true;
    }

    /** [IDENTIFIED][id] before a value that travels by value but keeps its identity ({@link ValueIdentities}). */
    private static void identified(WireBuffer out, Object value) {
        out.appendByte((byte) IDENTIFIED);
        out.appendLong(ValueIdentities.idOf(value));
    }

    private static void identifiedUnlessCanonical(WireBuffer out, Object bigNumber) {
        if (!ValueIdentities.isCanonical(bigNumber)) {
            identified(out, bigNumber);
        }
    }

    /** The primitives' boxes, which {@link #writeBoxed} writes. */
    static final Set<Class<?>> BOXES = Set.of(Integer.class, Long.class, Double.class, Float.class, Short.class, Byte.class,
            Character.class, Boolean.class);

    /** The classes whose instances {@link #write} writes as what they are (so does it enum constants). */
    static final Set<Class<?>> BY_VALUE = Stream.concat(BOXES.stream(),
            Stream.of(String.class, Class.class, BigInteger.class, BigDecimal.class)).collect(Collectors.toUnmodifiableSet());

    /** Whether {@link #write} writes {@code value} as what it is, reaching nothing else (a lambda reaches what it captured). */
    static boolean travelsByValue(Object value) {
        return value == null || BY_VALUE.contains(value.getClass())
                || value instanceof Enum<?> || Throwables.travelsByValue(value);
    }

    /** Whether a value that does not travel by value and is no lambda travels by id (else it cannot be shared). */
    static boolean isHolder(Object value) {
        return !InjectedState.hasMeta(value) || !Slots.isJdk(value.getClass());
    }

    static UnsharableException jdkObject(Class<?> type) {
        return jdkObject(type, null);
    }

    /** As {@link #jdkObject(Class)}, saying where the object was reached ({@code path}, or null when not known). */
    static UnsharableException jdkObject(Class<?> type, String path) {
        return new UnsharableException(type, "it is a JDK class" + (path == null ? "" : " (reached through " + path + ")")
                + ", and dist shares only application objects, arrays, plain"
                + " java.lang.Object instances, thread-locals (not inheritable ones), CountDownLatch and CyclicBarrier"
                + " instances, strings, boxed values, BigInteger and BigDecimal, immutable collections (List.of, Set.of, Map.of, toList()), classes, enum constants and exceptions");
    }
}
