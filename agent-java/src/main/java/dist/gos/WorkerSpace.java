package dist.gos;

import dist.gos.Twin.Change;
import dist.gos.WireReader.Arrived;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A worker's side of the object space: copies of the home's shared things, each with its twin,
 * which also records per slot the sequence number of the last home message or release that set it
 * (so a reply computed before a release, or before another reply, never undoes it). Releases, and
 * the application of what the home sends, hold one lock per node, so that a release is numbered
 * before any later reply is applied. The worker's own objects become shared when a release makes them reachable from
 * shared data: they are pushed home and from then on are copies like the others.
 */
final class WorkerSpace implements Holders {
    /** A copy's bookkeeping; the twin is null while the copy's state is on its way. */
    private record Copy(Object holder, Twin twin) {}

    private final int nodeId;
    private final ClassLoader loader;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Long, Copy> copies = new HashMap<>();
    private final Map<Object, Long> ids = new IdentityHashMap<>();
    private final Map<Object, Integer> identityHashes = new IdentityHashMap<>();
    private final WriteTracking<Copy> tracking = new WriteTracking<>();
    private long lastId;

    WorkerSpace(int nodeId, ClassLoader loader) {
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

    boolean isCopy(Object holder) {
        return idOf(holder) != 0;
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
            id = ((long) nodeId << 40) | ++lastId;
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
     * Applies a message from the home: installs the holders it carries, then lets {@code rest}
     * read the body (with its sequence number, for {@link #applyChanges}). Holds the node lock.
     */
    <T> T receive(byte[] message, java.util.function.BiFunction<WireReader, Long, T> rest) {
        lock.lock();
        try {
            WireReader reader = new WireReader(this, loader, message);
            long sequence = WireFormat.sequence(reader);
            for (Arrived arrived : reader.arrived()) {
                install(arrived);
            }
            return rest.apply(reader, sequence);
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

    /** The changes part of a home message, applied where they are newer than what the copy has. */
    void applyChanges(WireReader reader, long sequence) {
        WireFormat.readChangeGroups(reader, (id, changes) -> {
            Copy copy;
            synchronized (this) {
                copy = copies.get(id);
            }
            if (copy == null || copy.twin() == null) {
                throw new IllegalStateException("the home sent changes of object " + Long.toHexString(id)
                        + ", which this worker does not hold");
            }
            copy.twin().refresh(copy.holder(), changes, sequence);
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
            InjectedState.setObject(holder, InjectedState.VALID_COPY);
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
     * (pushing this worker's own objects that they now reach), and hands the bytes to
     * {@code exchange}, which sends them and returns the home's sequence number for them. Holds
     * the node lock throughout, so no home reply is applied in between.
     */
    void release(Consumer<WireWriter> header, java.util.function.ToLongFunction<byte[]> exchange) {
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
            WireFormat.changeGroups(writer, groups);
            long sequence = exchange.applyAsLong(writer.finish());
            // The objects this release pushed home for the first time need no stamp: no older
            // home message can name them.
            for (int i = 0; i < changed.size(); i++) {
                changed.get(i).twin().released(groups.get(i).changes(), sequence);
            }
        } finally {
            lock.unlock();
        }
    }
}
