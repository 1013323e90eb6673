package dev.distvm.objectspace;

import dev.distvm.common.DaemonThreads;
import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.exit.Exits;
import dev.distvm.transport.Endpoint;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * The node's way into the object space: starts this node's side of it (the node runtime calls it
 * once its membership is known), and says what it holds for the node's report.
 */
public final class ObjectSpace {
    private static volatile boolean worker;

    private ObjectSpace() {}

    /**
     * Says whether this JVM is a worker; the agent calls it first of all, before the object space
     * or any application code runs, since the hooks read it once ({@code Hooks.ON_WORKER}).
     */
    public static void declareRole(boolean isWorker) {
        worker = isWorker;
    }

    public static boolean isWorker() {
        return worker;
    }

    /**
     * The rewriter made these waiting synchronized methods able to run at their object's home
     * (keys as {@code RewriteCounts.homeCalls()} gives them): the home runs only those.
     */
    public static void allowCallsAtHome(List<String> keys) {
        if (!keys.isEmpty()) {
            HomeCalls.declare(keys);
        }
    }

    /**
     * Makes, on a thread of its own at the lowest priority, what the first thread placed would
     * otherwise wait for: the array hooks' method handles and the metafactory's first serializable
     * lambda, tens of milliseconds each in a fresh JVM.
     */
    public static void prepareInBackground() {
        DaemonThreads.start("dist-prepare", () -> {
            ArrayStores.prepare();
            if (worker) {
                ArrayReads.prepare();
            }
            Lambdas.prepare();
        }).setPriority(Thread.MIN_PRIORITY);
    }

    /** On a worker, before its first thread arrives: what running a placed thread's task needs made once. */
    public static void prepareWorkerThreads() {
        TaskFrames.prepare();
        ProgramEnvironment.prepareOnWorker();
    }

    /** @param mainThread the thread that runs {@code main} */
    public static void startHome(Endpoint endpoint, Membership membership, ClassLoader applicationLoader,
                                 Thread mainThread) {
        ValueIdentities.numberAs(endpoint::nodeId);
        Hooks.home = new HomeRuntime(endpoint, membership, applicationLoader, mainThread);
    }

    /**
     * @param homeAddress the home's transport address, asked for at each use (it is learned late)
     * @param isHome      whether a node id is the home's: only the home's object-space messages are taken
     */
    public static void startWorker(Endpoint endpoint, Supplier<String> homeAddress, IntPredicate isHome,
                                   ClassLoader applicationLoader) {
        if (!Hooks.onWorker()) {
            // The hooks would treat every copy as a local object: stop rather than compute wrongly.
            throw new IllegalStateException("dist's hooks were initialized before this node knew it is a worker");
        }
        ValueIdentities.numberAs(endpoint::nodeId);
        Hooks.worker = new WorkerRuntime(endpoint, homeAddress, new Senders("this worker's home", isHome), applicationLoader);
    }

    /**
     * Ends the run because this node cannot keep the program coherent ({@code why} says what and
     * why): a worker asks its home to end it, the home ends it; before the object space started, the
     * JVM exits with the message. Does not return.
     */
    public static void cannotRunCoherently(String why) {
        WorkerRuntime worker = Hooks.worker;
        HomeRuntime home = Hooks.home;
        if (worker != null) {
            worker.stop(Exits.CANNOT_RUN_COHERENTLY, why);
        } else if (home != null) {
            home.endRun(Exits.CANNOT_RUN_COHERENTLY, why);
        } else {
            System.err.println("[dist] error: " + why);
            Exits.exitSoon(Exits.CANNOT_RUN_COHERENTLY, why);
        }
        Exits.awaitExit();
    }

    /** A membership change seen at the home: a dead node that runs application threads ends the run. */
    public static void nodeChanged(NodeInfo node) {
        HomeRuntime home = Hooks.home;
        if (home != null) {
            home.nodeChanged(node);
        }
    }

    /**
     * Frees what the program no longer reaches, for a report of what is held: full collections,
     * and on a worker, the home told which copies went (which may free masters there).
     */
    public static void collectGarbage() throws InterruptedException {
        WorkerRuntime worker = Hooks.worker;
        if (worker != null) {
            worker.collector().settle();
        }
        System.gc();
        HomeRuntime home = Hooks.home;
        if (home != null) {
            home.awaitCollected();
        }
    }

    /** Shared things whose master is here (at the home) and copies held here (on a worker). */
    public static long homedObjects() {
        HomeRuntime home = Hooks.home;
        return home == null ? 0 : home.homedObjects();
    }

    public static long cachedCopies() {
        WorkerRuntime worker = Hooks.worker;
        return worker == null ? 0 : worker.space().copyCount();
    }

    /** Copies freed on this worker that the home has not forgotten yet. */
    public static long tombstones() {
        WorkerRuntime worker = Hooks.worker;
        return worker == null ? 0 : worker.space().tombstoneCount();
    }
}
