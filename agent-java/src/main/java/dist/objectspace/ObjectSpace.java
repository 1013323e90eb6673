package dist.objectspace;

import dist.coordinator.Membership;
import dist.coordinator.proto.NodeInfo;
import dist.transport.Endpoint;
import java.util.function.Supplier;

/** Starts this node's side of the object space; the node runtime calls it once its membership is known. */
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

    static boolean isWorker() {
        return worker;
    }

    /** @param mainThread the thread that runs {@code main}, or null when dist was attached late */
    public static void startHome(Endpoint endpoint, Membership membership, ClassLoader applicationLoader,
                                 Thread mainThread) {
        Hooks.home = new HomeRuntime(endpoint, membership, applicationLoader, mainThread);
    }

    /** @param homeAddress the home's transport address, asked for at each use (it is learned late) */
    public static void startWorker(Endpoint endpoint, Supplier<String> homeAddress, ClassLoader applicationLoader) {
        if (!Hooks.onWorker()) {
            // The hooks would treat every copy as a local object: stop rather than compute wrongly.
            throw new IllegalStateException("dist's hooks were initialized before this node knew it is a worker");
        }
        Hooks.worker = new WorkerRuntime(endpoint, homeAddress, applicationLoader);
    }

    /** A membership change seen at the home: a dead node that runs placed threads ends the run. */
    public static void nodeChanged(NodeInfo node) {
        HomeRuntime home = Hooks.home;
        if (home != null) {
            home.nodeChanged(node);
        }
    }
}
