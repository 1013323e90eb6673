package dist.gos;

import dist.coordinator.Membership;
import dist.coordinator.proto.NodeInfo;
import dist.transport.Endpoint;
import java.util.function.Supplier;

/** Starts this node's side of the object space; the node runtime calls it once its membership is known. */
public final class ObjectSpace {
    private ObjectSpace() {}

    /** @param mainThread the thread that runs {@code main}, or null when dist was attached late */
    public static void startHome(Endpoint endpoint, Membership membership, ClassLoader applicationLoader,
                                 Thread mainThread) {
        Hooks.home = new HomeRuntime(endpoint, membership, applicationLoader, mainThread);
    }

    /** @param homeAddress the home's transport address, asked for at each use (it is learned late) */
    public static void startWorker(Endpoint endpoint, Supplier<String> homeAddress, ClassLoader applicationLoader) {
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
