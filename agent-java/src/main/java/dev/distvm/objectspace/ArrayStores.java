package dev.distvm.objectspace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.SwitchPoint;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Finds, for a store into an array, the {@link ArrayWrites} of that array if it is shared here,
 * cheaply: the rewritten code calls this after every array store. Arrays have no field for dist's
 * state, so the answer comes from a registry (the worker's copies, the home's masters), behind a
 * filter of the identity hashes of shared arrays (a bit per hash, never cleared: most arrays a
 * program writes are its own, and the filter says so without a lock or an allocation) and a
 * direct-mapped cache by identity hash, which also remembers the arrays the filter could not
 * tell from shared ones. Until the first array is shared on this node a store costs nothing: the
 * store hooks go through a method handle guarded by a {@link SwitchPoint}, which the JIT compiles
 * as a constant and the first sharing invalidates (deoptimizing the code compiled without the
 * tracking, so that no loop keeps running untracked).
 *
 * <p>Sharing an array bumps a generation that voids every "not shared" answer in the cache; a
 * store that races with its array becoming shared may still miss its mark, exactly as a field
 * write racing with its object's sharing may: both sides compare a thing whole for its first
 * moments as shared ({@link WriteTracking}).
 *
 * <p>Arrays that JDK code may write later, outside any call the rewritten code sees (wrapped in a
 * buffer, viewed as a list), are remembered as aliased, shared yet or not.
 */
final class ArrayStores {
    private static final int CACHE_SIZE = 1024;
    private static final int FILTER_BITS = 1 << 20;
    private static final long[] FILTER = new long[FILTER_BITS / 64];
    private static final VarHandle FILTER_WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final Entry[] CACHE = new Entry[CACHE_SIZE];
    private static final WeakIdentityMap<Object, Boolean> ALIASED = new WeakIdentityMap<>();
    /** Valid until the first array is shared on this node: until then no store looks further. */
    private static final SwitchPoint NOTHING_SHARED = new SwitchPoint();
    private static final MethodHandle STORED;
    private static final MethodHandle PASSED;
    /** Whether any array was ever aliased here (set under {@link #ALIASED}'s lock, after the array is in it). */
    private static volatile boolean anyAliased;
    /** Whether {@link #NOTHING_SHARED} was invalidated (or is being). */
    private static volatile boolean active;
    /** Moves at each sharing of an array: the cache's "not shared" answers of an older generation are void. */
    private static final AtomicInteger GENERATION = new AtomicInteger();
    private static volatile Function<Object, ArrayWrites> registry = array -> null;

    static {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        STORED = SwitchedHooks.onceSwitched(NOTHING_SHARED, lookup, "track", MethodType.methodType(void.class, Object.class, int.class));
        PASSED = SwitchedHooks.onceSwitched(NOTHING_SHARED, lookup, "trackPassed", MethodType.methodType(void.class, Object.class));
    }
    private static final class Entry extends WeakReference<Object> {
        final ArrayWrites writes;
        final int generation;

        Entry(Object array, ArrayWrites writes, int generation) {
            super(array);
            this.writes = writes;
            this.generation = generation;
        }
    }

    private ArrayStores() {}

    /** Nothing but this class's initialization, which makes the method handles (see {@link ObjectSpace#prepareInBackground}). */
    static void prepare() {
        // the class initializer did the work
    }

    /** How this node finds the marks of a shared array (null for one that is not shared). */
    static void useRegistry(Function<Object, ArrayWrites> lookup) {
        registry = lookup;
    }

    /**
     * An array is becoming shared here: its marks, for the caller to register where
     * {@link #useRegistry the registry} finds them before it calls {@link #registered}.
     */
    static ArrayWrites shared(Object array) {
        int hash = System.identityHashCode(array) & (FILTER_BITS - 1);
        FILTER_WORDS.getAndBitwiseOr(FILTER, hash >>> 6, 1L << hash);
        ArrayWrites writes = new ArrayWrites(java.lang.reflect.Array.getLength(array));
        if (anyAliased) { // most programs never hand JDK code an array to keep: no lock per array shared
            synchronized (ALIASED) {
                if (ALIASED.get(array) != null) {
                    writes.alias();
                }
            }
        }
        return writes;
    }

    /** The marks {@link #shared} made are where the registry finds them: void the cache's "not shared" answers. */
    static void registered() {
        GENERATION.incrementAndGet();
        if (!active) {
            synchronized (ArrayStores.class) {
                if (!active) {
                    active = true;
                    SwitchPoint.invalidateAll(new SwitchPoint[] {NOTHING_SHARED});
                }
            }
        }
    }

    static void stored(Object array, int index) {
        SwitchedHooks.call(STORED, array, index);
    }

    /** JDK code the array was passed to has returned: it may have written any element. */
    static void passed(Object array) {
        SwitchedHooks.call(PASSED, array);
    }

    private static void track(Object array, int index) {
        ArrayWrites writes = writesOf(array);
        if (writes != null) {
            writes.stored(index);
        }
    }

    private static void trackPassed(Object array) {
        ArrayWrites writes = array == null ? null : writesOf(array);
        if (writes != null) {
            writes.storedAll();
        }
    }

    /** JDK code holds on to the array and may write it at any time. */
    static void aliased(Object array) {
        if (array == null) {
            return;
        }
        synchronized (ALIASED) {
            ALIASED.put(array, Boolean.TRUE);
            anyAliased = true;
        }
        if (active) {
            ArrayWrites writes = writesOf(array);
            if (writes != null) {
                writes.alias();
            }
        }
    }

    private static ArrayWrites writesOf(Object array) {
        int current = GENERATION.get();
        int hash = System.identityHashCode(array);
        if ((FILTER[(hash & (FILTER_BITS - 1)) >>> 6] & (1L << hash)) == 0) {
            return null; // never shared here
        }
        int slot = hash & (CACHE_SIZE - 1);
        Entry entry = CACHE[slot];
        if (entry != null && entry.get() == array && (entry.writes != null || entry.generation == current)) {
            return entry.writes;
        }
        ArrayWrites writes = registry.apply(array);
        CACHE[slot] = new Entry(array, writes, current);
        return writes;
    }
}
