package dev.distvm.objectspace;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The identity of values that travel by value and are not canonical: a string made with
 * {@code new String} (an interned one is the pool's on every node), a {@code BigInteger} or
 * {@code BigDecimal} other than the ones {@code valueOf} caches. A program may compare one by
 * identity: a consumer that stops at {@code line == POISON}, with {@code POISON = new String("EOF")},
 * took a copy made where it arrived for another string, and never stopped. Such a value carries an
 * id, numbered by the first node that sends it; a node that receives an id it already knows, for a
 * value still alive here, hands out the object it has, so the value that goes out and comes back,
 * or arrives twice, is one object, as on one JVM. Neither map keeps a value alive: a value nobody
 * here holds any more arrives as a new object, which nothing here can compare it with.
 * Boxes too ({@code Integer.valueOf(100_000)} as a consumer's end marker), when they sit in a
 * field or element that holds references: dist boxes its primitive fields' values the same way,
 * and those are no one's objects. (A box within the JDK's caches arrives as the cache's, also one
 * the program made with a deprecated constructor.)
 * An immutable collection that is not empty and an exception carry one too: a program that keeps
 * one failure where several threads put it compares it with {@code ==}. (What a node does to its
 * copy of an exception, {@code addSuppressed}, stays there: exceptions travel by value.)
 */
final class ValueIdentities {
    private static final class Known extends WeakReference<Object> {
        final long id;

        Known(Object value, long id, ReferenceQueue<Object> queue) {
            super(value, queue);
            this.id = id;
        }
    }

    private static IntSupplier node = () -> 0;
    private static final WeakIdentityMap<Object, Long> IDS = new WeakIdentityMap<>();
    private static final Map<Long, Known> BY_ID = new HashMap<>();
    private static final ReferenceQueue<Object> COLLECTED = new ReferenceQueue<>();
    private static long lastSequence;
    /** Set, under the lock, before the first value is given or takes an id; never cleared. */
    private static volatile boolean anyIdentified;

    private ValueIdentities() {}

    /** Where this node's numbers come from: its node id, known once it joined. */
    static synchronized void numberAs(IntSupplier nodeId) {
        node = nodeId;
    }

    /** Whether a {@code BigInteger} or {@code BigDecimal} is the one {@code valueOf} gives on every node (its cache's). */
    static boolean isCanonical(Object bigNumber) {
        if (bigNumber instanceof BigInteger number) {
            return number.bitLength() < Long.SIZE && BigInteger.valueOf(number.longValue()) == number;
        }
        BigDecimal number = (BigDecimal) bigNumber;
        return number.scale() == 0 && number.unscaledValue().bitLength() < Long.SIZE && BigDecimal.valueOf(number.longValue()) == number;
    }

    /**
     * Whether {@code value} is a box that {@code valueOf} does not give on every node: a float or
     * double, or an integral value or char outside the JDK's caches.
     */
    static boolean isUncachedBox(Object value) {
        if (value instanceof Integer v) {
            return Integer.valueOf(v) != v;
        }
        if (value instanceof Long v) {
            return Long.valueOf(v) != v;
        }
        if (value instanceof Short v) {
            return Short.valueOf(v) != v;
        }
        if (value instanceof Character v) {
            return Character.valueOf(v) != v;
        }
        return value instanceof Double || value instanceof Float;
    }

    /** The number {@code valueOf} gives for {@code number}'s value: its cache's, where it has one. */
    static BigInteger canonical(BigInteger number) {
        return number.bitLength() < Long.SIZE ? BigInteger.valueOf(number.longValue()) : number;
    }

    static BigDecimal canonical(BigDecimal number) {
        return number.scale() == 0 && number.unscaledValue().bitLength() < Long.SIZE ? BigDecimal.valueOf(number.longValue()) : number;
    }

    /** Whether {@code value} travelled with an id already (from here or to here). */
    static boolean hasId(Object value) {
        // Every string written asks; most programs never give one an id, and need not take the lock.
        if (!anyIdentified) {
            return false;
        }
        synchronized (ValueIdentities.class) {
            return IDS.get(value) != null;
        }
    }

    /** The id {@code value} travels with: the one it arrived with, or a new one. */
    static synchronized long idOf(Object value) {
        Long known = IDS.get(value);
        if (known != null) {
            return known;
        }
        long id = Ids.of(node.getAsInt(), ++lastSequence);
        remember(value, id);
        return id;
    }

    /** What a value that arrived with {@code id} is here: the object this node has under that id, if alive, else {@code value}. */
    static synchronized Object arrived(long id, Object value) {
        Known known = BY_ID.get(id);
        Object same = known == null ? null : known.get();
        if (same != null) {
            return same;
        }
        remember(value, id);
        return value;
    }

    private static void remember(Object value, long id) {
        anyIdentified = true;
        for (Known gone; (gone = (Known) COLLECTED.poll()) != null; ) {
            BY_ID.remove(gone.id, gone);
        }
        IDS.put(value, id);
        BY_ID.put(id, new Known(value, id, COLLECTED));
    }
}
