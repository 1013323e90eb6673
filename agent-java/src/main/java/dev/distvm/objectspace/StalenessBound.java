package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounded staleness (DESIGN.md §1): every write reaches the nodes that read it within a few
 * milliseconds even when no release ever happens, so programs that wait by spinning on plain
 * elements (a barrier's flags behind a volatile array field, a pipeline's progress counters) make
 * progress as on one JVM. A worker's own releases and acquires come only at synchronization
 * points; a tick adds one of each while placed threads run here: its changes go home (only if
 * there are any) and what others released reaches its copies. A tick is due every millisecond, or
 * ten times what the last one cost, so that large shared arrays, which every tick compares, cost
 * at most about a tenth of a CPU. A thread of its own ticks.
 */
final class StalenessBound implements Runnable {
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long COST_FACTOR = 10;

    /** One tick of a node: release what changed, then refresh; does nothing while nothing is shared or running. */
    interface Node {
        void tick();
    }

    private final Node node;

    private StalenessBound(Node node) {
        this.node = node;
    }

    /** Starts the node's ticking thread. */
    static void start(Node node) {
        DaemonThreads.start("dist-staleness-bound", new StalenessBound(node));
    }

    @Override
    public void run() {
        long wait = TICK_NANOS;
        while (true) {
            LockSupport.parkNanos(wait);
            long start = System.nanoTime();
            node.tick();
            wait = Math.max(TICK_NANOS, (System.nanoTime() - start) * COST_FACTOR);
        }
    }
}
