package dev.distvm.objectspace;

import java.lang.invoke.MethodHandles;
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
 * tell from shared ones. Until the first array is shared on this node a store costs one load and
 * a branch.
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
    /** Whether any array is shared on this node: until then no store looks further. */
    private static volatile boolean active;
    private static final AtomicInteger GENERATION = new AtomicInteger();
    private static volatile Function<Object, ArrayWrites> registry = array -> null;

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

    /** How this node finds the marks of a shared array (null for one that is not shared). */
    static void useRegistry(Function<Object, ArrayWrites> lookup) {
        registry = lookup;
    }

    /** An array became shared here, its marks already registered: void the cache's "not shared" answers. */
    static ArrayWrites shared(Object array) {
        int hash = System.identityHashCode(array) & (FILTER_BITS - 1);
        FILTER_WORDS.getAndBitwiseOr(FILTER, hash >>> 6, 1L << hash);
        ArrayWrites writes = new ArrayWrites(java.lang.reflect.Array.getLength(array));
        synchronized (ALIASED) {
            if (ALIASED.get(array) != null) {
                writes.alias();
            }
        }
        return writes;
    }

    /** Called once the marks {@link #shared} made are where the registry finds them. */
    static void registered() {
        GENERATION.incrementAndGet();
        active = true;
    }

    static void stored(Object array, int index) {
        if (active) {
            ArrayWrites writes = writesOf(array);
            if (writes != null) {
                writes.stored(index);
            }
        }
    }

    /** JDK code the array was passed to has returned: it may have written any element. */
    static void passed(Object array) {
        if (active && array != null) {
            ArrayWrites writes = writesOf(array);
            if (writes != null) {
                writes.storedAll();
            }
        }
    }

    /** JDK code holds on to the array and may write it at any time. */
    static void aliased(Object array) {
        if (array == null) {
            return;
        }
        synchronized (ALIASED) {
            ALIASED.put(array, Boolean.TRUE);
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
