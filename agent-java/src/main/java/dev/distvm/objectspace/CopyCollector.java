package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import java.util.function.UnaryOperator;

/**
 * A worker's daemon that tells the home which copies this worker's garbage collector freed, so
 * that the home stops pinning their masters ({@link WorkerSpace#dropRequest}, {@link HomeSpace#drop}).
 * A tombstone's twin keeps the copies it references alive until the home has agreed, so a chain
 * of copies is freed a link per round.
 */
final class CopyCollector {
    /** How long the daemon waits for a collected copy before it asks again about refused ones. */
    private static final long POLL_MILLIS = 1000;
    /** After a full collection, how long to wait for the collector to hand over what it freed. */
    private static final long SETTLE_MILLIS = 200;
    /** Links of a chain of tombstones freed at most by one {@link #settle}. */
    private static final int SETTLE_ROUNDS = 32;

    private final WorkerSpace space;
    /** Sends a drop request to the home and returns its answer. */
    private final UnaryOperator<byte[]> home;

    CopyCollector(WorkerSpace space, UnaryOperator<byte[]> home) {
        this.space = space;
        this.home = home;
    }

    void start() {
        DaemonThreads.start("dist-copy-collector", this::run);
    }

    private void run() {
        while (true) {
            try {
                if (space.awaitCollected(POLL_MILLIS)) {
                    round();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The home did not answer (the run may be ending): the tombstones wait for the next round.
                Log.debug("dropping freed copies failed: " + e);
            }
        }
    }

    /** One drop request and its answer; returns whether there was anything to drop. */
    private synchronized boolean round() {
        byte[] request = space.dropRequest();
        if (request == null) {
            return false;
        }
        byte[] reply = null;
        try {
            reply = home.apply(request);
        } finally {
            space.dropped(reply);
        }
        return true;
    }

    /**
     * Frees, with full collections, every copy the program no longer reaches, and has the home
     * forget them: for the report, which counts what is held at the end. Holds off the daemon's
     * rounds, so that none of them is half done when this ends.
     */
    synchronized void settle() throws InterruptedException {
        for (int i = 0; i < SETTLE_ROUNDS; i++) {
            System.gc();
            space.awaitCollected(SETTLE_MILLIS);
            if (!round()) {
                return;
            }
        }
    }
}
