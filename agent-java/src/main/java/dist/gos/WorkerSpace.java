package dist.gos;

import dist.gos.Twin.Change;
import dist.gos.WireReader.Arrived;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

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
 */
final class WorkerSpace implements Holders {
    /** A copy's bookkeeping; the twin is null while the copy's state is on its way. */
    private record Copy(Object holder, Twin twin) {}

    /** This node's id, asked at each use: the object space starts before the coordinator has given it one. */
    private final IntSupplier nodeId;
    private final ClassLoader loader;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a home message has been applied: the next one may be waiting for its turn. */
    private final Condition applied = lock.newCondition();
    /** The number of the last home message applied here; guarded by {@link #lock}. */
    private long lastApplied;
    /** The number of the last release sent; guarded by {@link #lock}. */
    private long lastRelease;
    private final Map<Long, Copy> copies = new HashMap<>();
    private final Map<Object, Long> ids = new IdentityHashMap<>();
    private final Map<Object, Integer> identityHashes = new IdentityHashMap<>();
    private final WriteTracking<Copy> tracking = new WriteTracking<>();
    private long lastId;

    WorkerSpace(IntSupplier nodeId, ClassLoader loader) {
        this.nodeId = nodeId;
        this.loader = loader;
    }

    ClassLoader loader() {
        return loader;
    }

    @Override
    public synchronized long idOf(Object holder) {
        Long id = ids.get(holder);
        return id == null ? 0 : id;
    }

    synchronized int copyCount() {
        return copies.size();
    }

    /**
     * Whether the holder is a copy. An application object says so in its injected meta, which
     * costs a read (this is asked at every monitor operation and volatile access); only arrays and
     * classes, which have no meta, need the registry. No other JDK object is ever shared.
     */
    boolean isCopy(Object holder) {
        if (holder instanceof Class<?> || holder.getClass().isArray()) {
            return idOf(holder) != 0;
        }
        return InjectedState.metaIfInjected(holder) instanceof Copy;
    }

    @Override
    public synchronized Object byId(long id) {
        Copy copy = copies.get(id);
        return copy == null ? null : copy.holder();
    }

    @Override
    public synchronized int identityHash(Object holder) {
        Integer hash = identityHashes.get(holder);
        return hash != null ? hash : System.identityHashCode(holder);
    }

    /** Only called while a release is being written: the holder is one of this worker's own. */
    @Override
    public long share(Object holder, Twin[] stateNeeded) {
        synchronized (this) {
            Long known = ids.get(holder);
            if (known != null) {
                return known;
            }
        }
        Twin twin = Twin.of(holder);
        Copy copy = new Copy(holder, twin);
        long id;
        synchronized (this) {
            id = Ids.of(nodeId.getAsInt(), ++lastId);
            copies.put(id, copy);
            ids.put(holder, id);
        }
        becameCopy(copy);
        stateNeeded[0] = twin;
        return id;
    }

    @Override
    public synchronized void adopt(long id, Kind kind, Object instance, int identityHash) {
        ids.put(instance, id);
        if (kind != Kind.STATICS) {
            identityHashes.put(instance, identityHash);
        }
        // Registered without a twin until its state is installed (under the node lock).
        copies.put(id, new Copy(instance, null));
    }

    /**
     * Applies a message from the home once every earlier one has been applied: installs the
     * holders it carries, then lets {@code rest} read the body (with how many of this worker's
     * releases the home had applied, for {@link #applyChanges}). Holds the node lock.
     */
    <T> T receive(byte[] message, java.util.function.BiFunction<WireReader, Long, T> rest) {
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
            try {
                WireReader reader = new WireReader(this, loader, message);
                for (Arrived arrived : reader.arrived()) {
                    install(arrived);
                }
                return rest.apply(reader, reader.acknowledged());
            } finally {
                lastApplied = sequence; // even when it failed (the run then stops): the next must not wait forever
                applied.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the holder's state has arrived here (not merely been named). */
    synchronized boolean installed(Object holder) {
        Long id = ids.get(holder);
        return id != null && copies.get(id).twin() != null;
    }

    /** The changes part of a home message, applied except where a release the home had not seen then set them. */
    void applyChanges(WireReader reader, long acknowledged) {
        WireFormat.readChangeGroups(reader, (id, changes) -> {
            Copy copy;
            synchronized (this) {
                copy = copies.get(id);
            }
            if (copy == null || copy.twin() == null) {
                throw new IllegalStateException("the home sent changes of object " + Long.toHexString(id)
                        + ", which this worker does not hold");
            }
            copy.twin().refresh(copy.holder(), changes, acknowledged);
        });
    }

    private void install(Arrived arrived) {
        Object holder = arrived.holder();
        Copy copy = new Copy(holder, Twin.install(holder, arrived.values()));
        synchronized (this) {
            copies.put(arrived.id(), copy);
        }
        becameCopy(copy);
    }

    /** From now on the rewritten code treats the holder as a copy, and its writes report themselves. */
    private void becameCopy(Copy copy) {
        Object holder = copy.holder();
        if (holder instanceof Class<?> type) {
            InjectedState.setClass(type, InjectedState.VALID_COPY);
        } else if (!holder.getClass().isArray()) {
            InjectedState.setMeta(holder, copy);
        }
        tracking.shared(copy, holder.getClass().isArray());
    }

    /** A write to a copy (reported by the rewritten code after the store): the next release compares it. */
    void written(Object holder) {
        Object meta = holder instanceof Class<?> ? null : InjectedState.meta(holder);
        if (meta instanceof Copy copy) {
            tracking.written(copy);
            return;
        }
        Copy copy;
        synchronized (this) {
            Long id = ids.get(holder);
            copy = id == null ? null : copies.get(id);
        }
        if (copy != null) {
            tracking.written(copy);
        }
    }

    /**
     * A release: writes {@code header}, then every change of every copy since the last release
     * (pushing this worker's own objects that they now reach), numbers it and hands the bytes to
     * {@code send}, which sends them without waiting for the home: the home applies this worker's
     * releases in the order they were sent, before anything this worker sends after them. Holds
     * the node lock throughout, so no home message is applied between the diff and the stamps.
     */
    void release(Consumer<WireWriter> header, Consumer<byte[]> send) {
        release(header, send, true);
    }

    /** A release only if some copy changed since the last one (see {@link StalenessBound}); returns whether it was sent. */
    boolean releaseChanges(Consumer<byte[]> send) {
        return release(writer -> {}, send, false);
    }

    private boolean release(Consumer<WireWriter> header, Consumer<byte[]> send, boolean evenIfUnchanged) {
        lock.lock();
        try {
            WireWriter writer = new WireWriter(this);
            header.accept(writer);
            java.util.Collection<Copy> all = tracking.scan();
            List<WireFormat.Group> groups = new ArrayList<>();
            List<Copy> changed = new ArrayList<>();
            for (Copy copy : all) {
                if (copy.twin() == null) {
                    continue;
                }
                List<Change> diff = copy.twin().changes(copy.holder());
                if (!diff.isEmpty()) {
                    groups.add(new WireFormat.Group(idOf(copy.holder()), diff, copy.twin().inChunks()));
                    changed.add(copy);
                }
            }
            if (groups.isEmpty() && !evenIfUnchanged) {
                return false;
            }
            WireFormat.changeGroups(writer, groups);
            long release = lastRelease + 1;
            send.accept(writer.finish(release, 0));
            lastRelease = release;
            // The objects this release pushed home for the first time need no stamp: no older
            // home message can name them.
            for (int i = 0; i < changed.size(); i++) {
                changed.get(i).twin().released(groups.get(i).changes(), release);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
