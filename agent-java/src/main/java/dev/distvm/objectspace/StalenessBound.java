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
 * at most about a tenth of a CPU. A thread of its own ticks. A node with nothing to tick for (no
 * placed thread running, no monitor lease held) is not woken every millisecond: on a machine
 * whose CPUs the program's threads keep busy, a thousand wake-ups a second of an idle worker
 * were a tenth of the kept-home ray tracer's slowdown at two nodes. It sleeps until a thread is
 * placed here ({@link #wake}), or {@link #IDLE_NANOS} at most.
 *
 * <p>Between two ticks of a busy node the cheap part runs every millisecond: the monitor leases
 * due back. It once ran only with the tick, and a tick that cost 25 ms (the first, as threads
 * arrived on a busy machine) put the next 250 ms away; a worker kept a shared counter's lease all
 * that time, and the home's threads that wanted it waited for the worker's whole run.
 */
final class StalenessBound implements Runnable {
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long COST_FACTOR = 10;
    /** The longest sleep of an idle node: a wake-up that never came costs no more than this. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** One tick of a node: release what changed, then refresh; does nothing while nothing is shared or running. */
    interface Node {
        /** Ticks; returns whether the next tick may have work (false: nothing runs or is held here). */
        boolean tick();

        /** Every millisecond while the node is busy, whatever the ticks cost: what must not wait for the next tick. */
        void between();
    }

    private final Node node;
    private volatile Thread ticking;

    StalenessBound(Node node) {
        this.node = node;
    }

    /** Starts the node's ticking thread. */
    void start() {
        ticking = DaemonThreads.start("dist-staleness-bound", this);
    }

    /** Something to tick for has begun (a thread was placed here): the next tick comes within a millisecond. */
    void wake() {
        Thread thread = ticking;
        if (thread != null) {
            LockSupport.unpark(thread); // a permit: a tick about to sleep wakes at once
        }
    }

    @Override
    public void run() {
        long wait = TICK_NANOS;
        boolean busy = true;
        while (true) {
            if (busy) {
                long due = System.nanoTime() + wait;
                do {
                    LockSupport.parkNanos(TICK_NANOS);
                    node.between();
                } while (System.nanoTime() - due < 0);
            } else {
                LockSupport.parkNanos(wait); // until a thread is placed here (wake), or the idle sleep's end
            }
            long start = System.nanoTime();
            busy = node.tick();
            wait = busy ? Math.max(TICK_NANOS, (System.nanoTime() - start) * COST_FACTOR) : IDLE_NANOS;
        }
    }
}
