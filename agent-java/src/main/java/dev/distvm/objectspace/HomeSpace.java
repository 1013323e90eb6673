package dev.distvm.objectspace;

import dev.distvm.objectspace.Twin.Change;
import dev.distvm.objectspace.WireReader.Arrived;
import dev.distvm.report.NodeCounters;
import dev.distvm.report.OnDemandCounts;
import dev.distvm.transport.WireBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The home's side of the object space: it holds the master of every shared object, array and
 * class's statics, and for each worker the values that worker last saw of each (a {@link Twin}
 * per worker and holder), so that a refresh sends only what changed since. The messages to a
 * worker are numbered (it applies them in that order) and say how many of that worker's releases
 * had been applied when they were written; a worker's releases are applied in the order it
 * numbered them, which is the order they arrive in (one connection, read by one thread).
 *
 * <p>The registry holds masters weakly: what keeps a master alive is the home's program, or a
 * worker holding a copy of it (its view's entry). A worker tells the home which copies it no
 * longer holds ({@link #drop}); once no worker holds a master and the program no longer reaches
 * it, it is collected and its entries go.
 */
final class HomeSpace {
    /**
     * Arrays of primitives at least this large go to a worker on demand: without their values,
     * which it fetches a run of chunks at a time where its threads read or write them, so a
     * thread that uses a part of a large array receives that part (and the updates of the chunks
     * it fetched), not the whole. Smaller ones travel whole, unless sending one whole to every
     * worker would move {@link #ON_DEMAND_TOTAL_BYTES} (and it is not small): while any array of a
     * worker lacks a chunk, its every array read looks the array up, which makes tight loops
     * several times slower ({@link ArrayReads}), a price worth paying only for arrays that would take
     * long to send. Crypt's three 16 MB arrays on 8 emulated hosts of a fifth of a CPU: 36.7 s whole,
     * 13.7 s on demand; on 2 hosts, whole is faster.
     */
    static final long ON_DEMAND_BYTES = 32 << 20;
    static final long ON_DEMAND_TOTAL_BYTES = 64 << 20;
    /** Below this an array always travels whole, however many workers get it. */
    static final long ALWAYS_WHOLE_BYTES = 4 << 20;
    /** How stale a volatile read's refresh may leave the arrays: bounded staleness's millisecond. */
    private static final long STALENESS_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A registry entry: weak to the master, so that only a view or the program keeps it alive. */
    private static final class Registered extends WeakReference<Object> {
        final long id;
        /** The identity hash it has on the node that shared it, which every node answers for it. */
        final int identityHash;
        /** An array's written chunks (null for other holders). */
        final ArrayWrites writes;

        Registered(Object master, long id, int identityHash, ReferenceQueue<Object> collected) {
            super(master, collected);
            this.id = id;
            this.identityHash = identityHash;
            this.writes = master.getClass().isArray() ? ArrayStores.shared(master) : null;
        }
    }

    private final int nodeId;
    private final ClassLoader loader;
    private final Map<Long, Registered> masters = new HashMap<>();
    private final WeakIdentityMap<Object, Registered> registered = new WeakIdentityMap<>();
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
    /**
     * Holders exported by a message still being written, with the view it is written for: if that
     * message fails, they are un-exported, unless another view has named them meanwhile.
     */
    private final Map<Object, View> exporting = new IdentityHashMap<>();
    /**
     * The id of each shared class (0: not shared), which every write to a class's statics at the
     * home asks for: read without the lock that {@link #idOf} takes, which a static synchronized
     * counter's two writes per call took at every call. Set before the class's state says shared,
     * cleared when it says local again.
     */
    private final ClassValue<AtomicLong> classIds = new ClassValue<>() {
        @Override
        protected AtomicLong computeValue(Class<?> type) {
            return new AtomicLong();
        }
    };
    /**
     * The views, one per worker, in an array: every write a home thread makes to a shared master
     * visits each of them (markWritten), and traversing a concurrent map's table there cost more
     * than the synchronized method around the write (a counter shared with a worker: about 1 us a
     * call at the home, nearly all of it the traversal). One per worker, so a look-up is a short
     * scan; added under {@link #addingView}, never removed.
     */
    private volatile View[] views = new View[0];
    private final Object addingView = new Object();
    /** Held to apply a release (write) and to scan masters for a refresh (read): see {@link ScanOrder}. */
    private final ReentrantReadWriteLock mastersAsAWhole = new ReentrantReadWriteLock();
    /**
     * Counts releases into the masters: a worker's release applied, a home thread's volatile
     * write to a shared master. A refresh after a volatile read compares the arrays only if one
     * happened since its view's last compare of them, or if bounded staleness asks for it.
     */
    private final AtomicLong releaseEpoch = new AtomicLong();
    /**
     * Home threads' volatile writes to shared masters begun and ended. A scan that no such write
     * overlapped saw the masters whole (the releases of workers are excluded by {@link
     * #mastersAsAWhole}); one that a write overlapped may have read a field before one write and
     * another after a later one, so its worker reads it as stale ({@link VolatileStaleness}).
     */
    private final AtomicLong volatileWritesBegun = new AtomicLong();
    private final AtomicLong volatileWritesEnded = new AtomicLong();
    /**
     * Passes a refresh's scan makes before it gives up on seeing the masters whole: each pass after
     * the first reads only what was written since the one before, which is little.
     */
    private static final int SCAN_PASSES = 3;
    private static final long OVERLAPPING_WRITES_WAIT_NANOS = 200_000;
    /** Tells a worker that its copies' volatile fields may be stale (see {@link WorkerRuntime#volatileRead}). */
    private volatile IntConsumer tellStale = node -> {};
    /** How many workers the cluster has: how many times an array sent whole may be sent. */
    private volatile IntSupplier workers = () -> 1;
    private volatile LeasesFromBirth leasesFromBirth = (node, lease, master) -> {
        throw new IllegalStateException("node " + node + " pushed an object whose monitor it holds, and no delegates serve leases here");
    };

    private boolean goesOnDemand(Object holder) {
        Class<?> component = holder.getClass().getComponentType();
        if (component == null || !component.isPrimitive()) {
            return false;
        }
        long bytes = PrimitiveArrays.bytesOf(component, java.lang.reflect.Array.getLength(holder));
        return bytes >= ON_DEMAND_BYTES || bytes >= ALWAYS_WHOLE_BYTES && bytes * workers.getAsInt() >= ON_DEMAND_TOTAL_BYTES;
    }

    /** Takes a master's monitor for a worker's lease: one it pushed home while a thread there held its monitor. */
    interface LeasesFromBirth {
        void hold(int node, int lease, Object master);
    }
    private long lastId;

    /**
     * What one worker holds of a master: the values it last saw, and the number of the last message
     * that named it (a drop written before the worker applied that message is refused). Holds the
     * master: a copy's master stays while the copy exists.
     */
    private static final class Seen {
        final Object master;
        final Twin twin;
        long lastNamed;
        /** An array's marks, and the last of their sweeps this worker's twin has compared (see {@link ArrayWrites}). */
        final ArrayWrites writes;
        long comparedThrough;
        /**
         * For an array the worker got on demand (else null): the chunks it fetched, whose changes a
         * refresh sends, and those it lacks, whose changes need no word. A change to any other
         * chunk (zeros it got with the array, or its own writes) is told as {@link AbsentChunks.Changed},
         * and the chunk is absent from then on.
         */
        final BitSet followed;
        final BitSet absent;

        Seen(Object master, Twin twin, long lastNamed, ArrayWrites writes, long comparedThrough, byte[] absentChunks) {
            this.master = master;
            this.twin = twin;
            this.lastNamed = lastNamed;
            this.writes = writes;
            this.comparedThrough = comparedThrough;
            this.followed = absentChunks == null ? null : new BitSet(absentChunks.length);
            this.absent = absentChunks == null ? null : new BitSet(absentChunks.length);
            if (absentChunks != null) {
                for (int c = 0; c < absentChunks.length; c++) {
                    if (absentChunks[c] != 0) {
                        absent.set(c);
                    }
                }
            }
        }
    }

    /** What one worker has seen; every operation on it holds its monitor. */
    private final class View implements Holders {
        private final int node;
        private final Map<Long, Seen> seen = new HashMap<>();
        private final WriteTracking<Long> tracking = new WriteTracking<>();
        /** The number of the last message written to this worker. */
        private long sequence;
        /** How many of this worker's releases have been applied. */
        private long releasesApplied;
        /**
         * Whether the worker was told that a release reached the masters since its last refresh
         * (see {@link #releasedToMasters}); set and cleared under {@link #mastersAsAWhole}.
         */
        private final AtomicBoolean toldStale = new AtomicBoolean();
        /** {@link #releaseEpoch} at this view's last compare of its arrays, when, and what it cost. */
        private long arraysComparedInEpoch = -1;
        private long arraysComparedAt;
        private long arraysCompareCost;

        View(int node) {
            this.node = node;
        }

        /** {@code writes}: an array's marks (else null); {@code comparedThrough}: their sweeps before {@code twin} was taken. */
        void see(long id, Object holder, Twin twin, long named, ArrayWrites writes, long comparedThrough, byte[] absentChunks) {
            seen.put(id, new Seen(holder, twin, named, writes, comparedThrough, absentChunks));
            tracking.shared(id, WriteTracking.arrayLength(holder));
        }

        /** The number the message being written will have (see {@link HomeSpace#write}). */
        long writing() {
            return sequence + 1;
        }

        @Override
        public long idOf(Object holder) {
            return HomeSpace.this.idOf(holder);
        }

        @Override
        public Object byId(long id) {
            return master(id);
        }

        @Override
        public long share(Object holder, Pushed pushed) {
            long id = export(holder, this);
            Seen known = seen.get(id);
            if (known != null) {
                known.lastNamed = writing();
            } else {
                Twin twin;
                ArrayWrites writes = marksOf(holder);
                long sweeps = sweepsOf(writes);
                try {
                    if (goesOnDemand(holder)) {
                        pushed.absentChunks = PrimitiveArrays.nonZeroChunks(holder);
                        twin = Twin.ofZeros(holder);
                        OnDemandCounts.sentOnDemand(holder.getClass());
                    } else {
                        twin = Twin.of(holder);
                    }
                } catch (RuntimeException e) {
                    unexport(List.of(holder), this);
                    throw e;
                }
                see(id, holder, twin, writing(), writes, sweeps, pushed.absentChunks);
                pushed.state = twin;
            }
            return id;
        }

        @Override
        public long onDemandAllowance() {
            return 0; // a worker sends its arrays whole
        }

        @Override
        public void adopt(long id, Kind kind, Object instance, int identityHash) {
            if (Ids.node(id) != node) {
                throw new IllegalStateException("node " + node + " sent object " + Long.toHexString(id)
                        + " as one of its own, but that id is node " + Ids.node(id) + "'s");
            }
            synchronized (HomeSpace.this) {
                register(instance, id, identityHash);
            }
            markShared(instance, id);
        }

        @Override
        public int identityHash(Object holder) {
            return HomeSpace.this.identityHash(holder);
        }

        @Override
        public ClassLoader loader() {
            return loader;
        }
    }

    HomeSpace(int nodeId, ClassLoader loader) {
        this.nodeId = nodeId;
        this.loader = loader;
    }

    ClassLoader loader() {
        return loader;
    }

    /** Who takes the masters' monitors for the leases that hold them from birth (see {@link #read}). */
    void leasesFromBirthThrough(LeasesFromBirth leases) {
        leasesFromBirth = leases;
    }

    /** Who says how many workers the cluster has (see {@link #ON_DEMAND_TOTAL_BYTES}). */
    void countWorkersThrough(IntSupplier count) {
        workers = count;
    }

    /** Who tells a worker that a release reached the masters since its last refresh. */
    void tellStaleThrough(IntConsumer tell) {
        tellStale = tell;
    }

    /**
     * A release changed the masters (a worker's, or a home thread's volatile write): every other
     * worker that has refreshed since it was last told is told, once, so that its next volatile
     * read refreshes; until then its volatile reads read its copies. Called once the release is in
     * the masters: a refresh that follows the telling sees it.
     */
    private void tellOthersStale(int releasingNode) {
        for (View view : views) {
            if (view.node != releasingNode && view.toldStale.compareAndSet(false, true)) {
                tellStale.accept(view.node);
            }
        }
    }

    synchronized long idOf(Object holder) {
        Registered entry = registered.get(holder);
        return entry == null ? 0 : entry.id;
    }

    /** The written-chunk marks of a shared array, null for an array that is not one (see {@link ArrayStores}). */
    synchronized ArrayWrites arrayWrites(Object array) {
        Registered entry = registered.get(array);
        return entry == null ? null : entry.writes;
    }

    /** An array's marks, null for any other holder. */
    private ArrayWrites marksOf(Object holder) {
        return holder.getClass().isArray() ? arrayWrites(holder) : null;
    }

    /** The sweeps of an array's marks so far; 0 for a holder without marks. */
    private static long sweepsOf(ArrayWrites writes) {
        return writes == null ? 0 : writes.sweeps();
    }

    /**
     * The masters registered and not collected: counted by their referents, not by the entries
     * the reference queue has not handed back yet (on a busy machine that lags a collection by
     * more than the report waits, and a freed master would be counted as held).
     */
    synchronized int masterCount() {
        expunge();
        int alive = 0;
        for (Registered entry : masters.values()) {
            if (entry.get() != null) {
                alive++;
            }
        }
        return alive;
    }

    synchronized Object master(long id) {
        Registered entry = masters.get(id);
        return entry == null ? null : entry.get();
    }

    synchronized int identityHash(Object holder) {
        Registered entry = registered.get(holder);
        return entry != null ? entry.identityHash : System.identityHashCode(holder);
    }

    /**
     * Waits up to {@code millis} for masters the garbage collector found unreachable (after a full
     * collection, for the report) and drops their entries.
     */
    void awaitCollected(long millis) throws InterruptedException {
        Reference<?> first = collected.remove(millis);
        synchronized (this) {
            if (first != null) {
                forget((Registered) first);
            }
            expunge();
        }
    }

    private void register(Object master, long id, int identityHash) {
        Registered entry = new Registered(master, id, identityHash, collected);
        masters.put(id, entry);
        registered.put(master, entry);
        if (entry.writes != null) {
            ArrayStores.registered();
        }
    }

    private void unregister(Object master) {
        Registered entry = registered.remove(master);
        if (entry != null) {
            masters.remove(entry.id, entry);
            entry.clear();
        }
    }

    private void expunge() {
        for (Reference<?> gone; (gone = collected.poll()) != null; ) {
            forget((Registered) gone);
        }
    }

    private void forget(Registered entry) {
        masters.remove(entry.id, entry);
    }

    private long export(Object holder, View view) {
        long id;
        synchronized (this) {
            Registered known = registered.get(holder);
            if (known != null) {
                if (exporting.get(holder) != view) {
                    exporting.remove(holder); // another view holds it now: it stays shared whatever that message does
                }
                return known.id;
            }
            expunge();
            id = Ids.of(nodeId, ++lastId);
            register(holder, id, System.identityHashCode(holder));
            exporting.put(holder, view);
        }
        try {
            markShared(holder, id);
        } catch (RuntimeException e) {
            synchronized (this) {
                exporting.remove(holder);
                unregister(holder);
            }
            if (holder instanceof Class<?> type) {
                classIds.get(type).set(0);
            }
            throw e;
        }
        return id;
    }

    /** The message for {@code view} that shared these holders was written whole: they stay shared. */
    private synchronized void exported(List<Object> holders, View view) {
        for (Object holder : holders) {
            exporting.remove(holder, view);
        }
    }

    /**
     * The message for {@code view} that shared these holders failed (a thread kept home because its
     * task reaches a JDK object): what it exported becomes local again, so that it costs nothing
     * more than on one JVM (a shared master's every write is tracked).
     */
    private void unexport(List<Object> holders, View view) {
        for (Object holder : holders) {
            synchronized (this) {
                if (exporting.get(holder) != view) {
                    continue;
                }
                exporting.remove(holder);
                unregister(holder);
            }
            if (holder instanceof Class<?> type) {
                InjectedState.setClass(type, InjectedState.VALID_LOCAL);
                classIds.get(type).set(0);
            } else if (InjectedState.hasMeta(holder)) {
                InjectedState.setMeta(holder, null);
            }
        }
    }

    /** From now on, writes to the master report themselves (its id first, so the report can find it). */
    private void markShared(Object master, long id) {
        if (master instanceof Class<?> type) {
            classIds.get(type).set(id);
            InjectedState.setClass(type, InjectedState.SHARED_MASTER);
        } else if (InjectedState.hasMeta(master)) {
            InjectedState.setMeta(master, id);
        }
    }

    /**
     * A home thread's volatile write to {@code master}: what it wrote before is released to the
     * workers' next acquires, arrays included (counted before the write is tracked: a refresh that
     * finds the write tracked sees the count too).
     */
    void volatileWritten(Object master, boolean begun) {
        long id = sharedId(master);
        if (id != 0) {
            releaseEpoch.incrementAndGet();
            tracked(id);
            tellOthersStale(nodeId);
        }
        if (begun) {
            volatileWritesEnded.incrementAndGet();
        }
    }

    /** A home thread is about to write a volatile field of {@code master}: returns whether it counts as begun (the master is shared). */
    boolean volatileWriteBeginning(Object master) {
        if (sharedId(master) == 0) {
            return false;
        }
        volatileWritesBegun.incrementAndGet();
        return true;
    }

    /**
     * A write to a shared master: every worker's next refresh compares it. A class stands for a
     * static field named through it, which may live in a superclass's statics.
     */
    void written(Object master) {
        if (master instanceof Class<?> named) {
            for (Class<?> type : StaticsHolders.mayHold(named)) {
                long id = classIds.get(type).get();
                if (id != 0) {
                    tracked(id);
                }
            }
            return;
        }
        long id = sharedId(master);
        if (id != 0) {
            tracked(id);
        }
    }

    /** A write to a shared object, whose meta is its id (the put helper read it): as {@link #written(Object)}. */
    void written(Object master, Object meta) {
        if (meta instanceof Long id) {
            tracked(id); // the meta's own box: a write costs no allocation
        }
    }

    /** The id of {@code master} if it is shared, else 0. */
    private long sharedId(Object master) {
        if (master instanceof Class<?> type) {
            return classIds.get(type).get();
        }
        // A shared object carries its id as its meta (markShared): a local one costs no registry lookup,
        // which every volatile write at the home would otherwise pay.
        return InjectedState.meta(master) instanceof Long known ? known : 0;
    }

    private void tracked(Long id) {
        NodeCounters.WRITES_TRACKED.increment();
        markWritten(id, -1);
    }

    private void markWritten(Long boxed, int exceptNode) {
        VarHandle.fullFence(); // once for every view (WriteTracking.writtenAfterFence)
        for (View view : views) {
            if (view.node != exceptNode) {
                view.tracking.writtenAfterFence(boxed, boxed);
            }
        }
    }

    private View view(int node) {
        View known = knownView(node);
        if (known != null) {
            return known;
        }
        synchronized (addingView) {
            known = knownView(node);
            if (known == null) {
                known = new View(node);
                View[] added = Arrays.copyOf(views, views.length + 1);
                added[added.length - 1] = known;
                views = added;
            }
            return known;
        }
    }

    private View knownView(int node) {
        for (View view : views) {
            if (view.node == node) {
                return view;
            }
        }
        return null;
    }

    /**
     * A message to {@code node}: {@code body} writes it; returns it, numbered in the node's
     * stream (once written whole: a message that fails is not sent, and the worker would wait for
     * its number forever).
     */
    WireBuffer write(int node, java.util.function.Consumer<WireWriter> body) {
        View view = view(node);
        synchronized (view) {
            WireWriter writer = new WireWriter(view);
            try {
                body.accept(writer);
            } catch (RuntimeException e) {
                // The message is not sent: the worker must not be thought to hold what it carried.
                for (Object holder : writer.newlyShared()) {
                    view.seen.remove(idOf(holder));
                }
                unexport(writer.newlyShared(), view);
                throw e;
            }
            exported(writer.newlyShared(), view);
            return writer.finish(++view.sequence, view.releasesApplied);
        }
    }

    /**
     * Throws {@link UnsharableException} when a message carrying {@code root} would meet an object
     * that cannot be shared, before anything is marked shared (see {@link UnsharableSearch}).
     */
    void refuseUnsharable(Object root) {
        UnsharableSearch.refuse(root, holder -> idOf(holder) != 0);
    }

    /** Adds to {@code writer} everything that changed since {@code node} last saw it. */
    void writeRefresh(int node, WireWriter writer) {
        writeRefresh(node, writer, true);
    }

    /**
     * The refresh after a volatile read of a copy (or a worker's staleness tick): it must carry
     * what was released before the write it may read, and arrays cannot say whether they were
     * written, so they are compared when a release happened since this view last compared them;
     * otherwise only when bounded staleness asks for it (every millisecond, or ten times what
     * their last compare cost). A thread spinning on a volatile read then costs the home what was
     * written, not a compare of every shared array per iteration.
     */
    void writeVolatileReadRefresh(int node, WireWriter writer) {
        writeRefresh(node, writer, false);
    }

    private void writeRefresh(int node, WireWriter writer, boolean withArrays) {
        View view = view(node);
        synchronized (view) {
            // No release is applied to the masters while they are read: the scan sees each one whole.
            mastersAsAWhole.readLock().lock();
            try {
                if (!withArrays) {
                    view.toldStale.set(false); // this refresh sees every release before it: the next one is told again
                }
                List<WireFormat.Group> groups = new ArrayList<>();
                boolean whole = false;
                for (int pass = 1; !whole && pass <= SCAN_PASSES; pass++) {
                    // Ended writes first, then the epoch: a write counted as ended has counted its
                    // epoch too, so the arrays it may have written before are compared.
                    long endedBefore = volatileWritesEnded.get();
                    long epoch = releaseEpoch.get();
                    long start = System.nanoTime();
                    boolean compareArrays = (withArrays && pass == 1) || epoch != view.arraysComparedInEpoch
                            || start - view.arraysComparedAt > Math.max(STALENESS_NANOS, view.arraysCompareCost * 10);
                    groups.addAll(scanChanges(view, view.tracking.scan(compareArrays)));
                    long begun = volatileWritesBegun.get();
                    whole = begun == endedBefore; // no write begun before this that had not ended
                    if (compareArrays) {
                        view.arraysComparedInEpoch = epoch;
                        view.arraysComparedAt = System.nanoTime();
                        view.arraysCompareCost = view.arraysComparedAt - start;
                    }
                    if (!whole) {
                        awaitVolatileWritesEnded(begun);
                    }
                }
                WireFormat.scanGroups(writer, groups, whole);
            } finally {
                mastersAsAWhole.readLock().unlock();
            }
        }
    }

    /**
     * Gives the home's volatile writes that overlapped a pass a moment to end (each is a store and
     * some bookkeeping, unless its thread lost its CPU), so that the next pass can be whole.
     */
    private void awaitVolatileWritesEnded(long begun) {
        long deadline = System.nanoTime() + OVERLAPPING_WRITES_WAIT_NANOS;
        while (volatileWritesEnded.get() < begun && System.nanoTime() < deadline) {
            Thread.yield();
        }
    }

    /**
     * One pass of a scan: the changes of what {@code scan} found since the view last saw them, in
     * the order the worker applies them; the caller holds the view and the read lock.
     */
    /**
     * A loop per method, and a method per due thing's changes ({@link #changesFor}), for the
     * reason a worker's release has them ({@link WorkerSpace}): the JIT compiles each piece once.
     */
    private List<WireFormat.Group> scanChanges(View view, WriteTracking.Scan<Long> scan) {
        List<Due> due = dueIn(view, scan);
        List<WireFormat.Group> groups = new ArrayList<>();
        for (Due next : due) {
            WireFormat.Group group = changesFor(view, next, scan);
            if (group != null) {
                groups.add(group);
            }
        }
        return ScanOrder.applyOrder(groups);
    }

    private static List<Due> dueIn(View view, WriteTracking.Scan<Long> scan) {
        List<Due> due = new ArrayList<>();
        for (long id : scan.due()) {
            Seen seen = view.seen.get(id);
            if (seen != null) { // else in a message that was never sent, or dropped by the worker
                due.add(new Due(id, seen));
            }
        }
        return due;
    }

    /** What the view's worker has not seen of one due thing, or null when it has seen it all. */
    private static WireFormat.Group changesFor(View view, Due next, WriteTracking.Scan<Long> scan) {
        Seen seen = next.seen();
        int[] written = null;
        if (seen.writes != null) {
            boolean whole = scan.whole().contains(next.id());
            if (!whole && seen.writes.unwrittenSince(seen.comparedThrough)) {
                return null; // what a sweep would find: nothing written since this view compared it
            }
            long sweep = seen.writes.sweep();
            written = whole ? null : seen.writes.sweptAfter(seen.comparedThrough);
            seen.comparedThrough = sweep;
            if (written != null && written.length == 0) {
                return null; // an array nobody wrote since this worker last saw it
            }
        }
        List<Change> changed = seen.followed == null ? seen.twin.changes(seen.master, written)
                : onDemandChanges(seen, written);
        if (changed.isEmpty()) {
            return null;
        }
        seen.lastNamed = view.writing();
        return new WireFormat.Group(next.id(), changed, seen.twin);
    }

    /**
     * The changes of an array a worker got on demand, in {@code written} (null: anywhere): the
     * values of the chunks it fetched, a word for those it holds but did not fetch and that now
     * differ from what it has (absent from then on), nothing for those it lacks.
     */
    private static List<Change> onDemandChanges(Seen seen, int[] written) {
        int length = java.lang.reflect.Array.getLength(seen.master);
        int[] ranges = written != null ? written : new int[] {0, length};
        List<Integer> followedRanges = new ArrayList<>();
        List<Change> told = new ArrayList<>();
        for (int r = 0; r < ranges.length; r += 2) {
            for (int c = ranges[r] >>> AbsentChunks.CHUNK_SHIFT; c < AbsentChunks.chunks(ranges[r + 1]); c++) {
                int from = c << AbsentChunks.CHUNK_SHIFT;
                int to = Math.min(length, from + (1 << AbsentChunks.CHUNK_SHIFT));
                if (seen.followed.get(c)) {
                    int last = followedRanges.size() - 1;
                    if (last > 0 && followedRanges.get(last) == from) {
                        followedRanges.set(last, to);
                    } else {
                        followedRanges.add(from);
                        followedRanges.add(to);
                    }
                } else if (!seen.absent.get(c) && seen.twin.differs(seen.master, from, to)) {
                    seen.absent.set(c);
                    Change previous = told.isEmpty() ? null : told.get(told.size() - 1);
                    if (previous != null && previous.slot() + ((AbsentChunks.Changed) previous.value()).elements() == from) {
                        told.set(told.size() - 1, new Change(previous.slot(), new AbsentChunks.Changed(to - previous.slot())));
                    } else {
                        told.add(new Change(from, new AbsentChunks.Changed(to - from)));
                    }
                }
            }
        }
        List<Change> changes = new ArrayList<>(told);
        if (!followedRanges.isEmpty()) {
            changes.addAll(seen.twin.changes(seen.master, followedRanges.stream().mapToInt(Integer::intValue).toArray()));
        }
        return changes;
    }

    /**
     * The answer to a worker's fault: the values of chunks [from, to) of an array it got on
     * demand, as changes from what it holds, followed from now on. Written under the masters'
     * read lock, so it sees each release whole. Returns the array's class.
     */
    Class<?> writeFetched(int node, long id, int from, int to, WireWriter writer) {
        View view = view(node);
        synchronized (view) {
            mastersAsAWhole.readLock().lock();
            try {
                Seen seen = view.seen.get(id);
                if (seen == null || seen.followed == null) {
                    throw new IllegalStateException("node " + node + " asked for chunks of object " + Long.toHexString(id)
                            + ", which it did not get on demand");
                }
                int length = java.lang.reflect.Array.getLength(seen.master);
                int chunks = AbsentChunks.chunks(length);
                if (from < 0 || from >= to || to > chunks) {
                    throw new IllegalArgumentException("node " + node + " asked for chunks [" + from + ", " + to + ") of an array of "
                            + chunks);
                }
                List<Change> changes = seen.twin.changes(seen.master,
                        new int[] {from << AbsentChunks.CHUNK_SHIFT, Math.min(length, to << AbsentChunks.CHUNK_SHIFT)});
                seen.followed.set(from, to);
                seen.absent.clear(from, to);
                seen.lastNamed = view.writing();
                writer.body().appendLong(id);
                writer.body().appendInt(from);
                writer.body().appendInt(to);
                WireFormat.changeGroups(writer, changes.isEmpty() ? List.of() : List.of(new WireFormat.Group(id, changes, seen.twin)));
                return seen.master.getClass();
            } finally {
                mastersAsAWhole.readLock().unlock();
            }
        }
    }

    /** A shared thing a refresh compares. */
    private record Due(long id, Seen seen) {}

    /** Opens a message from {@code node}; {@link #applyRelease} then reads its release. */
    WireReader read(int node, ByteBuffer message) {
        View view = view(node);
        synchronized (view) {
            WireReader reader = new WireReader(view, loader, message);
            for (Arrived arrived : reader.arrived()) {
                ForwardedCalls.refuseFromWorker(arrived.holder()); // a worker's own never comes (WorkerSpace.share)
                // Named by the worker, not by a home message: a drop need not wait for any of those.
                Twin twin = Twin.install(arrived.holder(), arrived.values());
                ArrayWrites writes = marksOf(arrived.holder());
                view.see(arrived.id(), arrived.holder(), twin, 0, writes, sweepsOf(writes), null);
                if (arrived.leaseFromBirth() != Holders.NO_LEASE) {
                    // Before anything of the message is applied: until then nobody here can reach the new master.
                    leasesFromBirth.hold(node, arrived.leaseFromBirth(), arrived.holder());
                }
            }
            return reader;
        }
    }

    /** Takes a worker's release (read by {@link #read}) into the masters; releases must come in their order. */
    void applyRelease(int node, WireReader reader) {
        View view = view(node);
        synchronized (view) {
            if (reader.sequence() != view.releasesApplied + 1) {
                throw new IllegalStateException("node " + node + " sent release " + reader.sequence() + " after release "
                        + view.releasesApplied + ": releases must be applied in the order they were made");
            }
            mastersAsAWhole.writeLock().lock();
            try {
                releaseEpoch.incrementAndGet();
                boolean[] changed = new boolean[1];
                WireFormat.readChangeGroups(reader, (id, changes) -> {
                    changed[0] = true;
                    Seen seen = view.seen.get(id);
                    if (seen == null) {
                        throw new IllegalStateException("node " + node + " released object " + Long.toHexString(id)
                                + ", which it does not hold");
                    }
                    seen.twin.apply(seen.master, changes);
                    if (seen.writes != null) {
                        for (Change change : changes) {
                            seen.writes.stored(change.slot(), change.slot() + Twin.span(change));
                        }
                    }
                    markWritten(id, node);
                });
                if (changed[0]) {
                    tellOthersStale(node);
                }
            } finally {
                mastersAsAWhole.writeLock().unlock();
            }
            view.releasesApplied++;
        }
    }

    /**
     * A worker's request to forget copies its garbage collector freed ({@link WorkerSpace#dropRequest}):
     * [messages applied][count][ids]. An id is accepted unless a message that the worker had not
     * applied then names it: that message would find the copy gone (the worker brings it back
     * from its twin instead, and asks again later). What is accepted no longer pins its master;
     * a later message carries it whole again. Answers [count][accepted ids].
     */
    byte[] drop(int node, byte[] request) {
        View view = view(node);
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(request));
            long applied = in.readLong();
            int count = in.readInt();
            if (count < 0 || count > request.length / 8) {
                throw new IOException("a drop of " + count + " ids does not fit its " + request.length + " bytes");
            }
            List<Long> accepted = new ArrayList<>();
            synchronized (view) {
                for (int i = 0; i < count; i++) {
                    long id = in.readLong();
                    Seen seen = view.seen.get(id);
                    if (seen == null || seen.lastNamed <= applied) {
                        view.seen.remove(id);
                        view.tracking.forget(id);
                        accepted.add(id);
                    }
                }
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(accepted.size());
            for (long id : accepted) {
                out.writeLong(id);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("node " + node + " sent a malformed drop: " + e.getMessage(), e);
        }
    }
}
