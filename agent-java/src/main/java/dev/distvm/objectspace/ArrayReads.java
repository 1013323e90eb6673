package dev.distvm.objectspace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.SwitchPoint;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Function;

/**
 * On a worker, faults in the absent chunks of array copies ({@link AbsentChunks}) before the
 * program reads or writes them: the rewritten code calls {@link #read} before every primitive
 * element read (the rewriter adds these calls on workers only, so the home and a single node pay
 * nothing), the store hooks before every write, and {@link #passing} before it hands an array to
 * JDK code.
 *
 * <p>Looking an array up costs a loop over it several times its plain speed (an identity hash and
 * a table per element read, which the JIT cannot hoist), so it happens only while some array on
 * this node has an absent chunk: {@link #checking} says so, a plain static field, which the JIT
 * may read once before a loop that makes no call (and compile the loop twice, with and without
 * the look-ups: loop unswitching). Most nodes never get an array on demand (only large ones
 * travel so), and there even that test costs nothing: the hooks go through a method handle
 * guarded by a {@link SwitchPoint}, which the JIT compiles as a constant and the first array on
 * demand invalidates (a test per element read made a sparse matrix product's loop half as slow
 * again).
 *
 * <p>The flag and the table are read without a lock. A chunk becomes absent only while a home
 * message is applied, under the node lock, after the flag is set; a thread that must see it absent
 * has acquired after that message (a refresh it applied, or a volatile read that waited for the
 * message, {@link WorkerSpace#awaitApplied}), and the JIT does not move a read of the flag above
 * a call or an acquire. A thread that still sees the flag set after the last chunk arrived only
 * looks up in vain.
 */
final class ArrayReads {
    private static final int TABLE_SIZE = 1 << 14;
    /** The arrays with absent chunks, by identity hash, chained through {@link AbsentChunks#nextIncomplete}. */
    private static final AbsentChunks[] INCOMPLETE = new AbsentChunks[TABLE_SIZE];
    /** Guards the table's changes and {@link #incompleteArrays}. */
    private static final Object TABLE_LOCK = new Object();
    private static int incompleteArrays;
    /** Whether any array on this node has an absent chunk (see above: deliberately neither final nor volatile). */
    private static boolean checking;
    /** Whether this node got any array on demand: only then may an array handed to JDK code have chunks to fetch. */
    private static volatile boolean holdsOnDemand;
    private static final SwitchPoint NOTHING_ON_DEMAND = new SwitchPoint();
    private static final MethodHandle READ;
    private static final MethodHandle PASSING;

    static {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        READ = SwitchedHooks.onceSwitched(NOTHING_ON_DEMAND, lookup, "readChecked",
                MethodType.methodType(void.class, Object.class, int.class));
        PASSING = SwitchedHooks.onceSwitched(NOTHING_ON_DEMAND, lookup, "passingChecked", MethodType.methodType(void.class, Object.class));
    }
    private static volatile Function<Object, AbsentChunks> registry = array -> null;
    private static volatile Fetcher fetcher = (array, chunks, from, to) -> {
        throw new IllegalStateException("dist: an array has absent chunks on a node that cannot fetch them");
    };

    /** Fetches chunks [from, to) of an array copy from the home and applies them before it returns. */
    interface Fetcher {
        void fetch(Object array, AbsentChunks chunks, int from, int to);
    }

    private ArrayReads() {}

    /** Nothing but this class's initialization, which makes the method handles (see {@link ObjectSpace#prepareInBackground}). */
    static void prepare() {
        // the class initializer did the work
    }

    /** An array came on demand (before it is registered, so before any thread can reach it). */
    static void onDemand() {
        if (!holdsOnDemand) {
            synchronized (TABLE_LOCK) {
                if (!holdsOnDemand) {
                    holdsOnDemand = true;
                    SwitchPoint.invalidateAll(new SwitchPoint[] {NOTHING_ON_DEMAND});
                }
            }
        }
    }

    /** How this worker finds an array copy's chunks (null: it came whole), and fetches them. */
    static void useRegistry(Function<Object, AbsentChunks> lookup, Fetcher fetch) {
        registry = lookup;
        fetcher = fetch;
    }

    /**
     * {@code array} has absent chunks now: the table holds it, under its identity hash (once; a copy
     * made again from its twin is another object, which replaces the old one).
     */
    static void incomplete(Object array, AbsentChunks chunks) {
        int hash = System.identityHashCode(array);
        synchronized (TABLE_LOCK) {
            if (chunks.incompleteAs == hash && chunks.inTable) {
                return;
            }
            remove(chunks);
            chunks.incompleteAs = hash;
            chunks.nextIncomplete = INCOMPLETE[hash & (TABLE_SIZE - 1)];
            chunks.inTable = true;
            checking = true;
            INCOMPLETE[hash & (TABLE_SIZE - 1)] = chunks; // after its fields: a reader follows the chain without a lock
            incompleteArrays++;
        }
    }

    /** The array of {@code chunks} has none absent any more, or is gone. */
    static void complete(AbsentChunks chunks) {
        synchronized (TABLE_LOCK) {
            remove(chunks);
            if (incompleteArrays == 0) {
                checking = false;
            }
        }
    }

    /** Unlinks {@code chunks}; a reader at it goes on through its {@code nextIncomplete}, which stays. */
    private static void remove(AbsentChunks chunks) {
        if (!chunks.inTable) {
            return;
        }
        int slot = chunks.incompleteAs & (TABLE_SIZE - 1);
        if (INCOMPLETE[slot] == chunks) {
            INCOMPLETE[slot] = chunks.nextIncomplete;
        } else {
            for (AbsentChunks c = INCOMPLETE[slot]; c != null; c = c.nextIncomplete) {
                if (c.nextIncomplete == chunks) {
                    c.nextIncomplete = chunks.nextIncomplete;
                    break;
                }
            }
        }
        chunks.inTable = false;
        incompleteArrays--;
    }

    /** Before a primitive element read (and a write: see {@link AbsentChunks}) on a worker. */
    static void read(Object array, int index) {
        SwitchedHooks.call(READ, array, index);
    }

    /** Before JDK code is handed {@code array}, which reads (or writes) any element, also of the arrays an array of arrays holds. */
    static void passing(Object array) {
        SwitchedHooks.call(PASSING, array);
    }

    private static void readChecked(Object array, int index) {
        if (checking) {
            check(array, index);
        }
    }

    private static void passingChecked(Object array) {
        if (array == null) {
            return;
        }
        if (array instanceof Object[] elements) {
            fetchAllWithin(elements, Collections.newSetFromMap(new IdentityHashMap<>()));
        } else if (array.getClass().isArray()) {
            fetchWhole(array);
        }
    }

    private static void check(Object array, int index) {
        if (array == null) {
            return; // the read throws
        }
        int hash = System.identityHashCode(array);
        for (AbsentChunks c = INCOMPLETE[hash & (TABLE_SIZE - 1)]; c != null; c = c.nextIncomplete) {
            // Another array may have the same identity hash: the registry, asked only for an absent
            // chunk (it takes a lock), says whether the entry is this array's.
            if (c.incompleteAs == hash && c.absent(index) && registry.apply(array) == c) {
                int[] run = c.toFetch(index);
                fetcher.fetch(array, c, run[0], run[1]);
                return;
            }
        }
    }

    /** JDK code handed an array of arrays reads the arrays in it, to any depth ({@code Arrays.deepToString}). */
    private static void fetchAllWithin(Object[] elements, Set<Object> seen) {
        if (!seen.add(elements)) {
            return;
        }
        for (Object element : elements) {
            if (element instanceof Object[] nested) {
                fetchAllWithin(nested, seen);
            } else if (element != null && element.getClass().isArray()) {
                fetchWhole(element);
            }
        }
    }

    /** Fetches every chunk not followed yet, present ones too: JDK code may keep the array (see {@link AbsentChunks#unfollowedRuns}). */
    private static void fetchWhole(Object array) {
        AbsentChunks chunks = registry.apply(array);
        if (chunks == null) {
            return;
        }
        int[] runs = chunks.unfollowedRuns();
        for (int r = 0; r < runs.length; r += 2) {
            fetcher.fetch(array, chunks, runs[r], runs[r + 1]);
        }
    }
}
