package dist.gos;

import dist.gos.Twin.Change;
import dist.gos.WireReader.Arrived;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The home's side of the object space: it holds the master of every shared object, array and
 * class's statics, and for each worker the values that worker last saw of each (a {@link Twin}
 * per worker and holder), so that a refresh sends only what changed since. The messages to a
 * worker are numbered (it applies them in that order) and say how many of that worker's releases
 * had been applied when they were written; a worker's releases are applied in the order it
 * numbered them, which is the order they arrive in (one connection, read by one thread).
 */
final class HomeSpace {
    private final int nodeId;
    private final ClassLoader loader;
    private final Map<Long, Object> masters = new HashMap<>();
    private final Map<Object, Long> ids = new IdentityHashMap<>();
    private final Map<Object, Integer> identityHashes = new IdentityHashMap<>();
    /**
     * Holders exported by a message still being written, with the view it is written for: if that
     * message fails, they are un-exported, unless another view has named them meanwhile.
     */
    private final Map<Object, View> exporting = new IdentityHashMap<>();
    /** Read on every write to a shared master (markWritten): concurrent, so that needs no copy or lock. */
    private final Map<Integer, View> views = new ConcurrentHashMap<>();
    private long lastId;

    /** What one worker has seen; every operation on it holds its monitor. */
    private final class View implements Holders {
        private final int node;
        private final Map<Long, Twin> seen = new HashMap<>();
        private final WriteTracking<Long> tracking = new WriteTracking<>();
        /** The number of the last message written to this worker. */
        private long sequence;
        /** How many of this worker's releases have been applied. */
        private long releasesApplied;

        View(int node) {
            this.node = node;
        }

        void see(long id, Object holder, Twin twin) {
            seen.put(id, twin);
            tracking.shared(id, holder.getClass().isArray());
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
        public long share(Object holder, Twin[] stateNeeded) {
            long id = export(holder, this);
            if (!seen.containsKey(id)) {
                Twin twin;
                try {
                    twin = Twin.of(holder);
                } catch (RuntimeException e) {
                    unexport(List.of(holder), this);
                    throw e;
                }
                see(id, holder, twin);
                stateNeeded[0] = twin;
            }
            return id;
        }

        @Override
        public void adopt(long id, Kind kind, Object instance, int identityHash) {
            if (Ids.node(id) != node) {
                throw new IllegalStateException("node " + node + " sent object " + Long.toHexString(id)
                        + " as one of its own, but that id is node " + Ids.node(id) + "'s");
            }
            synchronized (HomeSpace.this) {
                masters.put(id, instance);
                ids.put(instance, id);
                identityHashes.put(instance, identityHash);
            }
            markShared(instance, id);
        }

        @Override
        public int identityHash(Object holder) {
            return HomeSpace.this.identityHash(holder);
        }
    }

    HomeSpace(int nodeId, ClassLoader loader) {
        this.nodeId = nodeId;
        this.loader = loader;
    }

    ClassLoader loader() {
        return loader;
    }

    synchronized long idOf(Object holder) {
        Long id = ids.get(holder);
        return id == null ? 0 : id;
    }

    synchronized int masterCount() {
        return masters.size();
    }

    synchronized Object master(long id) {
        return masters.get(id);
    }

    synchronized int identityHash(Object holder) {
        Integer hash = identityHashes.get(holder);
        return hash != null ? hash : System.identityHashCode(holder);
    }

    private long export(Object holder, View view) {
        long id;
        synchronized (this) {
            Long known = ids.get(holder);
            if (known != null) {
                if (exporting.get(holder) != view) {
                    exporting.remove(holder); // another view holds it now: it stays shared whatever that message does
                }
                return known;
            }
            id = Ids.of(nodeId, ++lastId);
            masters.put(id, holder);
            ids.put(holder, id);
            exporting.put(holder, view);
        }
        try {
            markShared(holder, id);
        } catch (RuntimeException e) {
            synchronized (this) {
                exporting.remove(holder);
                masters.remove(ids.remove(holder));
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
                masters.remove(ids.remove(holder));
            }
            if (holder instanceof Class<?> type) {
                InjectedState.setClass(type, InjectedState.VALID_LOCAL);
            } else if (!holder.getClass().isArray()) {
                InjectedState.setMeta(holder, null);
            }
        }
    }

    /** From now on, writes to the master report themselves (its id first, so the report can find it). */
    private static void markShared(Object master, long id) {
        if (master instanceof Class<?> type) {
            InjectedState.setClass(type, InjectedState.SHARED_MASTER);
        } else if (!master.getClass().isArray()) {
            InjectedState.setMeta(master, id);
        }
    }

    /** A write to a shared master: every worker's next refresh compares it. */
    void written(Object master) {
        Object meta = master instanceof Class<?> ? null : InjectedState.meta(master);
        long id = meta instanceof Long known ? known : idOf(master);
        if (id != 0) {
            NodeCounters.WRITES_TRACKED.increment();
            markWritten(id, -1);
        }
    }

    private void markWritten(long id, int exceptNode) {
        views.forEach((node, view) -> {
            if (node != exceptNode) {
                view.tracking.written(id);
            }
        });
    }

    private View view(int node) {
        return views.computeIfAbsent(node, View::new);
    }

    /**
     * A message to {@code node}: {@code body} writes it; returns its bytes, numbered in the node's
     * stream (once written whole: a message that fails is not sent, and the worker would wait for
     * its number forever).
     */
    byte[] write(int node, java.util.function.Consumer<WireWriter> body) {
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

    /** Adds to {@code writer} everything that changed since {@code node} last saw it. */
    void writeRefresh(int node, WireWriter writer) {
        View view = view(node);
        synchronized (view) {
            List<WireFormat.Group> groups = new ArrayList<>();
            for (long id : view.tracking.scan()) {
                Twin twin = view.seen.get(id);
                if (twin == null) {
                    continue; // in a message that was never sent
                }
                List<Change> changed = twin.changes(master(id));
                if (!changed.isEmpty()) {
                    groups.add(new WireFormat.Group(id, changed, twin.inChunks()));
                }
            }
            WireFormat.changeGroups(writer, groups);
        }
    }

    /** Opens a message from {@code node}; {@link #applyRelease} then reads its release. */
    WireReader read(int node, byte[] message) {
        View view = view(node);
        synchronized (view) {
            WireReader reader = new WireReader(view, loader, message);
            for (Arrived arrived : reader.arrived()) {
                view.see(arrived.id(), arrived.holder(), Twin.install(arrived.holder(), arrived.values()));
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
            WireFormat.readChangeGroups(reader, (id, changes) -> {
                Object master = master(id);
                Twin twin = view.seen.get(id);
                if (master == null || twin == null) {
                    throw new IllegalStateException("node " + node + " released object " + Long.toHexString(id)
                            + ", which the home never sent it");
                }
                twin.apply(master, changes);
                markWritten(id, node);
            });
            view.releasesApplied++;
        }
    }
}
