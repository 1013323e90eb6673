package dev.distvm.objectspace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Whether some thread may hold an object's JVM monitor right now, which Java answers only for the
 * calling thread ({@code Thread.holdsLock}): read from HotSpot's mark word, the first eight bytes of
 * every object, whose two lowest bits are 01 when the object is unlocked, 00 when a thread holds it
 * (stack- or fast-locked) and 10 when its monitor is inflated (held or not: counted as held). A
 * probe at class initialization checks that this JVM lays its headers out so; where it does not,
 * every object counts as possibly held, which is slower but never wrong for the callers.
 */
final class MonitorWord {
    private static final MethodHandle GET_LONG = InternalUnsafe.method("getLong", MethodType.methodType(long.class, Object.class, long.class));
    private static final long UNLOCKED = 0b01;
    private static final boolean READABLE = probe();

    private MonitorWord() {}

    /** False only when no thread holds {@code object}'s monitor now (it may take it the next moment). */
    static boolean mayBeHeld(Object object) {
        return !READABLE || (mark(object) & 0b11) != UNLOCKED;
    }

    /** Whether the mark word is read as this class expects on this JVM. */
    static boolean readable() {
        return READABLE;
    }

    private static long mark(Object object) {
        try {
            return (long) GET_LONG.invokeExact(object, 0L);
        } catch (Throwable e) {
            throw new IllegalStateException("dist: reading an object's header failed", e);
        }
    }

    private static boolean probe() {
        if (GET_LONG == null) {
            return false;
        }
        Object probe = new Object();
        boolean unlockedReadsUnlocked = (mark(probe) & 0b11) == UNLOCKED;
        boolean lockedReadsLocked;
        synchronized (probe) {
            lockedReadsLocked = (mark(probe) & 0b11) != UNLOCKED;
        }
        return unlockedReadsUnlocked && lockedReadsLocked && (mark(probe) & 0b11) == UNLOCKED;
    }
}
