package dev.distvm.objectspace;

import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.transport.Endpoint;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * The home's questions about a {@code Thread} it holds but did not start: a thread on a worker
 * may have started it (a placed thread's {@code start} runs on its node, from its own object or a
 * copy), and only that node knows whether it runs. The home asks every worker
 * ({@code SPACE_THREAD_ASKED}, by the object's id); the one that started it answers its state, and
 * one whose thread ended sends its release first, so a join or an {@code isAlive} that sees it
 * ended sees its writes, as on one JVM. No worker started it: it was never started. A thread a
 * worker started before the program's synchronization that leads here told the home of the
 * start is known to that worker when it answers, so "never started" is the answer one JVM gives.
 * Main's join of children that placed threads started returned at once before (it printed the
 * zeros they had not replaced yet).
 */
final class ThreadsStartedOnWorkers {
    /** A worker's answer: no thread of it started this object. */
    static final byte NOT_STARTED_HERE = -1;
    /** How often a join polls while the thread runs: a join of such a thread is rare, and its end is late by this at most. */
    private static final long POLL_MILLIS = 2;

    private final Endpoint endpoint;
    private final Membership membership;
    private final HomeSpace space;

    ThreadsStartedOnWorkers(Endpoint endpoint, Membership membership, HomeSpace space) {
        this.endpoint = endpoint;
        this.membership = membership;
        this.space = space;
    }

    /** Whether the home must ask the workers about {@code thread}: never started here, not placed, and workers hold it. */
    boolean mayHaveStarted(Thread thread, PlacedThreads placed) {
        return thread.getState() == Thread.State.NEW && !placed.isPlaced(thread) && space.idOf(thread) != 0;
    }

    /**
     * The thread's state where it was started; {@code NEW} if no worker started it. One a worker
     * shared only after it ended there ({@link ThreadCopies}) is ended without asking.
     */
    Thread.State state(Thread thread) {
        if (ThreadCopies.isEndedOnWorker(thread)) {
            return Thread.State.TERMINATED;
        }
        long id = space.idOf(thread);
        for (NodeInfo node : membership.alive()) {
            if (node.getRole() != Role.WORKER) {
                continue;
            }
            ByteBuffer answer = SpaceMessages.call(endpoint, node.getAddress(), NodeMessageType.SPACE_THREAD_ASKED_VALUE,
                    SpaceMessages.ofLong(id), Duration.ofSeconds(60));
            byte state = answer.get(0);
            if (state != NOT_STARTED_HERE) {
                return Thread.State.values()[state];
            }
        }
        return Thread.State.NEW;
    }

    /** {@code thread.join(millis)} (0: no limit): returns once it is not alive where it runs, or after {@code millis}. */
    void join(Thread thread, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMillis(millis).toNanos();
        while (isAlive(state(thread))) {
            if (millis != 0 && System.nanoTime() - deadline >= 0) {
                return;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    static boolean isAlive(Thread.State state) {
        return state != Thread.State.NEW && state != Thread.State.TERMINATED;
    }
}
