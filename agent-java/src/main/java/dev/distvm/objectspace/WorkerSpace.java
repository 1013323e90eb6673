package dev.distvm.objectspace;

import dev.distvm.objectspace.Twin.Change;
import dev.distvm.objectspace.WireReader.Arrived;
import dev.distvm.report.OnDemandCounts;
import dev.distvm.transport.WireBuffer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * A worker's side of the object space: copies of the home's shared things, each with its twin.
 * The home's messages to this worker are numbered, and are applied here in that order whichever
 * thread received them (a message may create holders that a later one changes). This worker
 * numbers its releases, which travel without waiting for the home; each home message says how
 * many of them the home had applied, so that one written before a release never undoes it (the
 * twin stamps each slot with the last release that carried it). Releases, and the application of
 * what the home sends, hold one lock per node. The worker's own objects become shared when a
 * release makes them reachable from shared data: they are pushed home and from then on are
 * copies like the others.
 *
 * <p>Copies are held weakly: the program decides how long a copy lives, as it would an object
 * of its own. When the garbage collector frees one, its record stays as a tombstone with its twin
 * (which keeps what it references alive) until the home agrees to forget it ({@link #dropRequest}):
 * a home message written before the home saw the drop may still name it, and the copy is then
 * made again from its twin, the state both sides last agreed on (writes made here after that
 * were unreachable, but for the one gap written in docs/ARCHITECTURE.md).
 */
final class WorkerSpace implements Holders {
    /**
     * A copy's bookkeeping, weak to the holder (whose meta may point here); the twin is null while
     * the copy's state is on its way. Once the holder is collected, a tombstone.
     */
    private static final class Copy extends WeakReference<Object> implements WriteTracking.Marked {
        final long id;
        /** The identity hash it has on the node that shared it, which this node answers for it too. */
        final int identityHash;
        volatile Twin twin;
        /** An array's written chunks (null for other holders). */
        volatile ArrayWrites writes;
        /** An array's chunks that are not here (null: it came whole, see {@link AbsentChunks}). */
        volatile AbsentChunks absent;

        /** See {@link WriteTracking.Marked}. */
        private volatile boolean writeReported;

        Copy(Object holder, long id, int identityHash, Twin twin, ReferenceQueue<Object> collected) {
            super(holder, collected);
            this.id = id;
            this.identityHash = identityHash;
            this.twin = twin;
        }

        @Override
        public boolean writeReported() {
            return writeReported;
        }

        @Override
        public void writeReported(boolean reported) {
            writeReported = reported;
        }
    }

    /** This node's id, asked at each use: the object space starts before the coordinator has given it one. */
    private final IntSupplier nodeId;
    private final ClassLoader loader;
    private final ReentrantLock lock = new ReentrantLock();
    /** A home message is being applied (under {@link #lock}); see {@link #awaitApplied}. */
    private volatile boolean applying;
    final VolatileStaleness volatiles = new VolatileStaleness();
    /** Signalled when a home message has been applied: the next one may be waiting for its turn. */
    private final Condition applied = lock.newCondition();
    /** The number of the last home message applied here; guarded by {@link #lock}. */
    private long lastApplied;
    /** The number of the last release sent; guarded by {@link #lock}. */
    private long lastRelease;
    /**
     * Why a release failed, once one did: the writes it had taken from the tracking are neither
     * sent nor tracked any more, so no later release may tell the home that this node's threads
     * got further (a thread's end would let its {@code join} return at the home, and the program
     * print what it computed without those writes, before the run stopped).
     */
    private RuntimeException releaseFailed;
    /** Every copy and tombstone by id; the maps and sets below are guarded by this object's monitor. */
    private final Map<Long, Copy> copies = new HashMap<>();
    private final WeakIdentityMap<Object, Copy> byHolder = new WeakIdentityMap<>();
    /**
     * The copy record of each class whose statics are a copy here, which every write to those
     * statics, every enter and exit of the class's monitor and every volatile static access asks
     * for: read without the node lock that {@link #byHolder} needs (a static synchronized counter
     * took it four times a call, beside the releases that hold it while they scan).
     */
    private final ClassValue<AtomicReference<Copy>> classCopies = new ClassValue<>() {
        @Override
        protected AtomicReference<Copy> computeValue(Class<?> type) {
            return new AtomicReference<>();
        }
    };
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
    /** Tombstones not yet in a drop request. */
    private final Set<Long> tombstones = new LinkedHashSet<>();
    /** The tombstones of the drop request in flight, as they were when it was written. */
    private final Map<Long, Copy> dropping = new HashMap<>();
    private final WriteTracking<Copy> tracking = new WriteTracking<>();
    private long lastId;
    /** Makes the lease that holds the monitor of one of this node's objects from the moment it is pushed home. */
    private volatile ToIntFunction<Object> leaseFromBirth = holder -> {
        throw new IllegalStateException("dist: no monitor leases on this node");
    };

    WorkerSpace(IntSupplier nodeId, ClassLoader loader) {
        this.nodeId = nodeId;
        this.loader = loader;
    }

    /** Who makes the lease of an object pushed home while a thread here holds its monitor (see {@link #share}). */
    void leasesFromBirthThrough(ToIntFunction<Object> leases) {
        leaseFromBirth = leases;
    }

    /** The absent chunks of an array copy that came on demand, null for any other array (see {@link ArrayReads}). */
    synchronized AbsentChunks absentChunks(Object array) {
        Copy copy = byHolder.get(array);
        return copy == null ? null : copy.absent;
    }

    /**
     * Arrays on demand are made here without their values: one message may make up to half the
     * largest heap this JVM may have (their twins take as much again). Not what is free now, which
     * counts garbage not yet collected as used: the same arrays sent whole would be allocated too.
     */
    @Override
    public long onDemandAllowance() {
        return Runtime.getRuntime().maxMemory() / 2;
    }

    /** The written-chunk marks of an array copy, null for an array that is not one (see {@link ArrayStores}). */
    synchronized ArrayWrites arrayWrites(Object array) {
        Copy copy = byHolder.get(array);
        return copy == null ? null : copy.writes;
    }

    @Override
    public ClassLoader loader() {
        return loader;
    }

    @Override
    public synchronized long idOf(Object holder) {
        Copy copy = byHolder.get(holder);
        return copy == null ? 0 : copy.id;
    }

    /** Whether any copy (or tombstone) is registered here; cheap, unlike {@link #copyCount}. */
    synchronized boolean holdsCopies() {
        return !copies.isEmpty();
    }

    /** Copies held here whose holder is alive. */
    synchronized int copyCount() {
        int alive = 0;
        for (Copy copy : copies.values()) {
            if (copy.get() != null) {
                alive++;
            }
        }
        return alive;
    }

    /** Copies freed here that the home has not agreed to forget yet. */
    synchronized int tombstoneCount() {
        return copies.size() - copyCount();
    }

    /**
     * Whether the holder is a copy. An application object says so in its injected meta, which
     * costs a read (this is asked at every monitor operation and volatile access), a class in
     * {@link #classCopies} (its statics are installed before code can reach them, see
     * {@code CopyMonitors.entered}); only arrays, plain {@code Object}s and JDK thread-locals need the
     * registry. No other JDK object is ever shared.
     */
    boolean isCopy(Object holder) {
        if (holder instanceof Class<?> type) {
            return classCopy(type) != null;
        }
        if (!InjectedState.hasMeta(holder)) {
            return idOf(holder) != 0;
        }
        return copyByMeta(holder) != null;
    }

    /**
     * The copy record in an application object's meta, if it is this object's: {@code clone()}
     * copies the meta into the clone, a local object until something shared reaches it.
     */
    private static Copy copyByMeta(Object holder) {
        return copyByMeta(holder, InjectedState.metaIfInjected(holder));
    }

    /** As {@link #copyByMeta(Object)}, given the meta the caller read. */
    private static Copy copyByMeta(Object holder, Object meta) {
        return meta instanceof Copy copy && copy.refersTo(holder) ? copy : null;
    }

    @Override
    public synchronized Object byId(long id) {
        Copy copy = copies.get(id);
        return copy == null ? null : holderOf(copy);
    }

    @Override
    public synchronized int identityHash(Object holder) {
        Copy copy = byHolder.get(holder);
        return copy != null ? copy.identityHash : System.identityHashCode(holder);
    }

    /**
     * Only called while a release is being written: the holder is one of this worker's own. If a
     * thread here may hold its monitor, taken while it was local, a lease holds the master's from
     * the start (the home takes it before it applies the release), or a thread of another node
     * could enter while this one is still inside. The lease is made before the holder is a copy,
     * so no thread here asks the home for the monitor meanwhile.
     */
    @Override
    public long share(Object holder, Pushed pushed) {
        synchronized (this) {
            Copy known = byHolder.get(holder);
            if (known != null) {
                return known.id;
            }
        }
        ForwardedCalls.refuseFromWorker(holder);
        Twin twin = Twin.of(holder);
        if (!(holder instanceof Class<?>) && MonitorWord.mayBeHeld(holder)) {
            pushed.leaseFromBirth = leaseFromBirth.applyAsInt(holder);
        }
        Copy copy;
        synchronized (this) {
            copy = register(holder, Ids.of(nodeId.getAsInt(), ++lastId), System.identityHashCode(holder), twin);
        }
        becameCopy(copy, holder);
        pushed.state = twin;
        return copy.id;
    }

    @Override
    public synchronized void adopt(long id, Kind kind, Object instance, int identityHash) {
        // Registered without a twin until its state is installed (under the node lock).
        register(instance, id, kind == Kind.STATICS ? System.identityHashCode(instance) : identityHash, null);
    }

    private Copy register(Object holder, long id, int identityHash, Twin twin) {
        Copy copy = new Copy(holder, id, identityHash, twin, collected);
        copies.put(id, copy);
        byHolder.put(holder, copy);
        tombstones.remove(id);
        return copy;
    }

    /** The holder of a copy; a tombstone's is made again from its twin. */
    private Object holderOf(Copy copy) {
        Object holder = copy.get();
        if (holder != null || copy.twin == null) {
            return holder;
        }
        holder = copy.twin.recreate();
        Copy again = register(holder, copy.id, copy.identityHash, copy.twin);
        again.absent = copy.absent; // the twin holds what was here: the chunks absent then are absent still
        becameCopy(again, holder);
        return holder;
    }

    /**
     * Applies a message from the home once every earlier one has been applied: installs the
     * holders it carries, then lets {@code rest} read the body (with how many of this worker's
     * releases the home had applied, for {@link #applyChanges}). Holds the node lock.
     */
    <T> T receive(ByteBuffer message, java.util.function.BiFunction<WireReader, Long, T> rest) {
        long sequence = WireReader.sequenceOf(message);
        lock.lock();
        try {
            if (sequence <= lastApplied) {
                throw new IllegalStateException("the home's message " + sequence + " arrived again (" + lastApplied
                        + " applied)");
            }
            while (lastApplied != sequence - 1) {
                applied.awaitUninterruptibly(); // its predecessor is in another thread's hands
            }
            applying = true;
            try {
                WireReader reader = new WireReader(this, loader, message);
                for (Arrived arrived : reader.arrived()) {
                    install(arrived);
                }
                return rest.apply(reader, reader.acknowledged());
            } finally {
                lastApplied = sequence; // even when it failed (the run then stops): the next must not wait forever
                applying = false;
                applied.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns once no home message is being applied here: a volatile read of a copy that a
     * refresh in progress (a staleness tick's, another thread's) just wrote must not be followed
     * by reads of data the same refresh has yet to write. The refresh sets {@link #applying}
     * before it writes anything, so a reader that saw one of its writes sees that it runs.
     */
    void awaitApplied() {
        if (applying) {
            lock.lock();
            lock.unlock();
        }
    }

    void withLock(Runnable action) {
        withLock(() -> {
            action.run();
            return null;
        });
    }

    <T> T withLock(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the holder's state has arrived here (not merely been named). */
    boolean installed(Object holder) {
        if (holder instanceof Class<?> type) {
            return classCopy(type) != null;
        }
        synchronized (this) {
            Copy copy = byHolder.get(holder);
            return copy != null && copy.twin != null;
        }
    }

    /** The changes part of a home message, applied except where a release the home had not seen then set them. */
    /** Applies the changes of a home scan; returns whether the scan saw the masters whole ({@link WireFormat#scanGroups}). */
    boolean applyChanges(WireReader reader, long acknowledged) {
        boolean whole = reader.body().get() != 0;
        volatiles.applying(whole);
        WireFormat.readChangeGroups(reader, (id, changes) -> {
            Copy copy;
            Object holder;
            synchronized (this) {
                copy = copies.get(id);
                holder = copy == null ? null : holderOf(copy);
            }
            if (holder == null || copy.twin == null) {
                throw new IllegalStateException("the home sent changes of object " + Long.toHexString(id)
                        + ", which this worker does not hold");
            }
            copy.twin.refresh(holder, chunksLost(copy, holder, changes), acknowledged);
        });
        return whole;
    }

    /**
     * Takes the home's words that chunks of an array on demand changed out of {@code changes}: those
     * chunks are absent from now on; returns the rest, the values of the chunks this worker fetched.
     */
    private static List<Change> chunksLost(Copy copy, Object holder, List<Change> changes) {
        List<Change> values = null;
        for (int i = 0; i < changes.size(); i++) {
            Change change = changes.get(i);
            if (change.value() instanceof AbsentChunks.Changed changed) {
                AbsentChunks absent = copy.absent;
                if (absent == null) {
                    throw new IllegalStateException("the home said chunks of object " + Long.toHexString(copy.id)
                            + " changed, which this worker did not get on demand");
                }
                int from = change.slot() >>> AbsentChunks.CHUNK_SHIFT;
                if (absent.lose(from, AbsentChunks.chunks(change.slot() + changed.elements()))) {
                    ArrayReads.incomplete(holder, absent);
                }
                if (values == null) {
                    values = new ArrayList<>(changes.subList(0, i));
                }
            } else if (values != null) {
                values.add(change);
            }
        }
        return values == null ? changes : values;
    }

    /**
     * Applies the home's answer to a fault ({@link HomeSpace#writeFetched}): the values of the chunks
     * asked for, which are here from now on.
     */
    void applyFetched(WireReader reader, long acknowledged) {
        ByteBuffer body = reader.body();
        long id = body.getLong();
        int from = body.getInt();
        int to = body.getInt();
        Copy copy;
        Object holder;
        synchronized (this) {
            copy = copies.get(id);
            holder = copy == null ? null : holderOf(copy);
        }
        if (holder == null || copy.twin == null || copy.absent == null) {
            throw new IllegalStateException("the home sent chunks of object " + Long.toHexString(id)
                    + ", which this worker did not get on demand");
        }
        WireFormat.readChangeGroups(reader, (changedId, changes) -> copy.twin.refresh(holder, changes, acknowledged));
        if (copy.absent.arrived(from, to)) {
            ArrayReads.complete(copy.absent);
        }
    }

    private void install(Arrived arrived) {
        Object holder = arrived.holder();
        AbsentChunks absent = null;
        Twin twin;
        if (arrived.values().length == 1 && arrived.values()[0] instanceof AbsentChunks.Flags flags) {
            // Sent on demand: zeros here and in the twin, the chunks that are not zeros at the home absent.
            if (!PrimitiveArrays.isPrimitiveArray(holder)) {
                throw new IllegalArgumentException("object-space message: a " + holder.getClass().getName() + " sent on demand");
            }
            PrimitiveArrays.clear(holder);
            OnDemandCounts.sentOnDemand(holder.getClass());
            ArrayReads.onDemand();
            absent = new AbsentChunks(arrived.id(), java.lang.reflect.Array.getLength(holder), flags.absent());
            twin = Twin.ofZeros(holder);
        } else {
            twin = Twin.install(holder, arrived.values());
        }
        Copy copy;
        synchronized (this) {
            copy = byHolder.get(holder);
            copy.twin = twin;
            copy.absent = absent;
        }
        becameCopy(copy, holder);
    }

    /** The copy record of {@code type}'s statics, set once they are installed here (null before). */
    private Copy classCopy(Class<?> type) {
        return classCopies.get(type).get();
    }

    /** From now on the rewritten code treats the holder as a copy, and its writes report themselves. */
    private void becameCopy(Copy copy, Object holder) {
        if (holder instanceof Class<?> type) {
            classCopies.get(type).set(copy);
            InjectedState.setClass(type, InjectedState.VALID_COPY);
        } else if (InjectedState.hasMeta(holder)) {
            InjectedState.setMeta(holder, copy);
        } else if (holder.getClass().isArray()) {
            copy.writes = ArrayStores.shared(holder);
            ArrayStores.registered();
            if (copy.absent != null && copy.absent.anyAbsent()) {
                ArrayReads.incomplete(holder, copy.absent); // a copy made again from its twin is another object
            }
        }
        tracking.shared(copy, WriteTracking.arrayLength(holder));
    }

    /** A write to an object whose meta the put helper read: a copy's record, or another object's (a clone copied it). */
    void written(Object holder, Object meta) {
        Copy copy = copyByMeta(holder, meta);
        if (copy != null) {
            tracking.written(copy, holder);
        }
    }

    /**
     * A write to a copy (reported by the rewritten code after the store): the next release compares
     * it. A class stands for a static field named through it, which may live in a superclass's statics.
     */
    void written(Object holder) {
        if (holder instanceof Class<?> named) {
            for (Class<?> type : StaticsHolders.mayHold(named)) {
                Copy copy = classCopy(type);
                if (copy != null) {
                    tracking.written(copy, type);
                }
            }
            return;
        }
        Copy copy = copyOf(holder);
        if (copy != null) {
            tracking.written(copy, holder);
        }
    }

    /**
     * A thread here is about to write the volatile field {@code field} ({@link Slots#fieldSlot}) of
     * a copy: no home message overwrites it until a release carries the write ({@link Twin#volatileWriteStarting}).
     */
    void volatileWriteStarting(Object holder, int field) {
        Copy copy = copyOf(holder);
        if (copy != null && copy.twin != null) {
            copy.twin.volatileWriteStarting(field);
        }
    }

    /** The write {@link #volatileWriteStarting} announced is in the copy: the next release carries it, and compares the copy. */
    void volatileWriteEnded(Object holder, int field) {
        Copy copy = copyOf(holder);
        if (copy != null) {
            if (copy.twin != null) {
                copy.twin.volatileWriteEnded(field);
            }
            tracking.written(copy, holder);
        }
    }

    /** The copy record of a holder (an object, an array, or a class for its statics), or null when it is not a copy. */
    private Copy copyOf(Object holder) {
        if (holder instanceof Class<?> type) {
            return classCopy(type);
        }
        if (InjectedState.hasMeta(holder)) {
            return copyByMeta(holder);
        }
        synchronized (this) {
            return byHolder.get(holder);
        }
    }

    /**
     * A release: writes {@code header}, then every change of every copy since the last release
     * (pushing this worker's own objects that they now reach), numbers it and hands the bytes to
     * {@code send}, which sends them without waiting for the home: the home applies this worker's
     * releases in the order they were sent, before anything this worker sends after them. Holds
     * the node lock throughout, so no home message is applied between the diff and the stamps.
     */
    void release(Consumer<WireWriter> header, Consumer<WireBuffer> send) {
        release(header, send, true);
    }

    /** A release only if some copy changed since the last one (see {@link StalenessBound}); returns whether it was sent. */
    boolean releaseChanges(Consumer<WireBuffer> send) {
        return release(writer -> {}, send, false);
    }

    /**
     * Each loop of a release is a method of its own, and so is each copy's diff ({@link #changesOf}):
     * the JIT compiles each once, small, and an uncommon trap recompiles only its own piece. As one
     * method that inlined them all, a release was compiled seven times in a 2-node SOR run (loops on
     * stack, then traps at its {@code send} as new callers' lambdas arrived), for 0.96 s of C2 on the
     * worker's two CPUs (perf/RESULTS.md).
     */
    private boolean release(Consumer<WireWriter> header, Consumer<WireBuffer> send, boolean evenIfUnchanged) {
        lock.lock();
        try {
            if (releaseFailed != null) {
                throw new IllegalStateException("an earlier release of this node failed: " + releaseFailed.getMessage(), releaseFailed);
            }
            return releaseOnce(header, send, evenIfUnchanged);
        } catch (RuntimeException e) {
            if (releaseFailed == null) {
                releaseFailed = e;
            }
            throw e;
        } finally {
            lock.unlock();
        }
    }

    private boolean releaseOnce(Consumer<WireWriter> header, Consumer<WireBuffer> send, boolean evenIfUnchanged) {
        WireWriter writer = new WireWriter(this);
        header.accept(writer);
        UnreleasedWrites.NODE.releasing();
        WriteTracking.Scan<Copy> scan = tracking.scan();
        // The holders first: a copy unlinked by another's diff stays alive until it is diffed too.
        List<Copy> due = new ArrayList<>();
        List<Object> holders = new ArrayList<>();
        collectDue(scan, due, holders);
        List<WireFormat.Group> groups = new ArrayList<>();
        List<Copy> changed = new ArrayList<>();
        diffAll(due, holders, scan, groups, changed);
        if (groups.isEmpty() && !evenIfUnchanged) {
            return false;
        }
        WireFormat.changeGroups(writer, ScanOrder.applyOrder(groups));
        long release = lastRelease + 1;
        send.accept(writer.finish(release, 0));
        lastRelease = release;
        stampAll(changed, groups, release);
        Reference.reachabilityFence(holders);
        return true;
    }

    /** The scan's copies whose holders are alive and installed, and those holders, index by index. */
    private static void collectDue(WriteTracking.Scan<Copy> scan, List<Copy> due, List<Object> holders) {
        for (Copy copy : scan.due()) {
            Object holder = copy.get();
            if (holder != null && copy.twin != null) {
                due.add(copy);
                holders.add(holder);
            }
        }
    }

    /** The changes of each due copy, and the copies that had any, index by index. */
    private static void diffAll(List<Copy> due, List<Object> holders, WriteTracking.Scan<Copy> scan,
            List<WireFormat.Group> groups, List<Copy> changed) {
        for (int i = 0; i < due.size(); i++) {
            Copy copy = due.get(i);
            WireFormat.Group group = changesOf(copy, holders.get(i), scan.whole().contains(copy));
            if (group != null) {
                groups.add(group);
                changed.add(copy);
            }
        }
    }

    /**
     * Each changed copy's twin learns the release that carried its changes. The objects this
     * release pushed home for the first time need no stamp: no older home message can name them.
     */
    private static void stampAll(List<Copy> changed, List<WireFormat.Group> groups, long release) {
        for (int i = 0; i < changed.size(); i++) {
            changed.get(i).twin.released(groups.get(i).changes(), release);
        }
    }

    /**
     * What a release carries for one copy, or null when nothing changed: the slots that differ from
     * its twin, for an array only in the chunks written since the last release (all of them when
     * {@code whole}). A method of its own, called per copy, so that the JIT compiles the diff once,
     * early, and the release's loops call it: a release inlining every element type's diff was
     * compiled four times (three of its loops on stack, then the method) at 250 ms of C2 each, with
     * a grid's rows (perf/RESULTS.md).
     */
    private static WireFormat.Group changesOf(Copy copy, Object holder, boolean whole) {
        ArrayWrites writes = copy.writes;
        int[] written = writes == null ? null : writes.take();
        if (written != null && written.length == 0 && !whole) {
            return null; // an array nobody wrote since the last release
        }
        List<Change> diff = copy.twin.changes(holder, whole ? null : written);
        return diff.isEmpty() ? null : new WireFormat.Group(copy.id, diff, copy.twin);
    }

    // ---- copies the garbage collector freed -------------------------------------------------

    /**
     * Waits up to {@code millis} for copies the garbage collector freed and makes them tombstones;
     * returns whether there are tombstones to drop.
     */
    boolean awaitCollected(long millis) throws InterruptedException {
        Reference<?> first = collected.remove(millis);
        synchronized (this) {
            if (first != null) {
                entomb((Copy) first);
            }
            for (Reference<?> next; (next = collected.poll()) != null; ) {
                entomb((Copy) next);
            }
            byHolder.expunge();
            return !tombstones.isEmpty();
        }
    }

    private void entomb(Copy copy) {
        if (copies.get(copy.id) == copy) {
            tombstones.add(copy.id);
        }
        tracking.forget(copy);
        if (copy.absent != null && copies.get(copy.id) == copy) {
            // The object is gone: no read can reach it any more. Unless a home message made it again
            // from its twin before this: the new object shares these chunks and is the one looked up.
            ArrayReads.complete(copy.absent);
        }
    }

    /**
     * The request to the home to forget this worker's tombstones ({@link HomeSpace#drop}), or null
     * when there are none: [home messages applied here][count][ids]. Taken under the node lock, so
     * that no home message is half applied: one the home numbered up to then that named a copy
     * was applied before the copy was freed, or made it again.
     */
    byte[] dropRequest() {
        lock.lock();
        try {
            synchronized (this) {
                if (tombstones.isEmpty()) {
                    return null;
                }
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                DataOutputStream out = new DataOutputStream(bytes);
                out.writeLong(lastApplied);
                out.writeInt(tombstones.size());
                for (long id : tombstones) {
                    out.writeLong(id);
                    dropping.put(id, copies.get(id));
                }
                tombstones.clear();
                return bytes.toByteArray();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The home's answer to {@link #dropRequest} (null when it gave none): the accepted tombstones go,
     * unless a later message made the copy again; the others are asked for again later.
     */
    synchronized void dropped(byte[] reply) {
        if (reply != null) {
            try {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(reply));
                for (int i = in.readInt(); i > 0; i--) {
                    long id = in.readLong();
                    Copy tombstone = dropping.remove(id);
                    if (copies.remove(id, tombstone)) {
                        tombstone.twin = null; // what it references may go now, whoever still holds the record
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                requeue();
            }
        } else {
            requeue();
        }
    }

    private void requeue() {
        dropping.forEach((id, tombstone) -> {
            if (copies.get(id) == tombstone) {
                tombstones.add(id);
            }
        });
        dropping.clear();
    }
}
