package dev.distvm.node;

import dev.distvm.common.Log;
import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.exit.Exits;
import dev.distvm.exit.HomeEndedException;
import dev.distvm.objectspace.ObjectSpace;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * A worker: joins the cluster, serves requests with classes fetched from the home, and ends when
 * the home ends (leaves, dies, or its process exits) or the cluster expels it; it outlives a lost
 * coordinator.
 */
public final class WorkerNode {
    private static final CountDownLatch NEVER = new CountDownLatch(1);

    private WorkerNode() {}

    private static volatile boolean serving;

    /** Starts the worker; its threads serve the cluster from now on. Returns its endpoint. */
    public static Endpoint start(AgentOptions options) throws IOException {
        ClusterSecret secret = ClusterSecret.fromEnvironment();
        if (secret == null) {
            throw new StartupException("a worker needs the cluster secret: set " + ClusterSecret.ENV
                    + " to the secret the coordinator was started with");
        }
        Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secret).withBindAddress(options.bind())
                .withAdvertisedAddress(options.advertise()).withEncryption(options.encrypt()));
        Path cache = RunDirectory.create();
        Membership[] membership = new Membership[1];
        RemoteClassLoader loader = new RemoteClassLoader(ClassLoader.getSystemClassLoader(), endpoint,
                () -> homeAddress(membership[0]), cache);
        NodeRuntime runtime = new NodeRuntime(AgentOptions.Role.WORKER, endpoint, loader, loader::classesLoaded);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            runtime.close();
            RunDirectory.delete(cache);
        }, "dist-worker-shutdown"));
        // Before joining: the home may place a thread here as soon as it hears of this node.
        ObjectSpace.startWorker(endpoint, () -> homeAddress(membership[0]).orElseThrow(() -> homeGone(membership[0])),
                id -> isHome(membership[0], id), loader);
        membership[0] = Membership.join(endpoint, options.join(), Role.WORKER, new Membership.Listener() {
            @Override
            public void changed(NodeInfo node) {
                if (node.getRole() == Role.HOME && node.getState() != NodeState.ALIVE) {
                    Exits.exitSoon(0, "the home (node " + node.getId() + ") " + (node.getState() == NodeState.LEFT
                            ? "ended" : "died") + "; this worker stops");
                }
            }

            @Override
            public void lost(String reason) {
                Log.warn(reason + "; this worker was expelled from the cluster and stops");
                Exits.exitSoon(Exits.EXPELLED, reason);
            }
        });
        runtime.install(membership[0]);
        homeAddress(membership[0]).ifPresent(home -> runtime.connectSoon(List.of(home)));
        if (options.parentPid() != 0) {
            Optional<ProcessHandle> parent = ProcessHandle.of(options.parentPid());
            if (parent.isEmpty()) {
                Exits.exitSoon(0, "the JVM that started this worker is gone");
            } else {
                parent.get().onExit().thenRun(() -> Exits.exitSoon(0, "the JVM that started this worker ended"));
            }
        }
        Log.debug("worker node " + membership[0].nodeId() + " serving at " + endpoint.address());
        serving = true;
        return endpoint;
    }

    /** Whether {@link #start} started a worker in this JVM. */
    public static boolean serving() {
        return serving;
    }

    /** Blocks the calling thread for the life of the worker, which ends through System.exit. */
    public static void serveForever() {
        try {
            NEVER.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Optional<String> homeAddress(Membership membership) {
        if (membership == null) {
            return Optional.empty();
        }
        return membership.alive().stream().filter(n -> n.getRole() == Role.HOME).map(NodeInfo::getAddress).findFirst();
    }

    /** Why there is no home to talk to: it ended the run (left), or it is not a member any more. */
    private static IllegalStateException homeGone(Membership membership) {
        Optional<NodeInfo> ended = membership == null ? Optional.empty() : membership.known().stream()
                .filter(n -> n.getRole() == Role.HOME && n.getState() == NodeState.LEFT).findFirst();
        return ended.<IllegalStateException>map(home -> new HomeEndedException(home.getId()))
                .orElseGet(() -> new IllegalStateException("the home is not a member of the cluster any more"));
    }

    /**
     * Whether node {@code id} is this worker's home. A node this worker has not heard of is taken
     * for it only while no home has joined: the coordinator's news of the home may arrive after the
     * home's first message.
     */
    private static boolean isHome(Membership membership, int id) {
        if (membership == null) {
            return true;
        }
        return membership.node(id).map(n -> n.getRole() == Role.HOME && n.getState() == NodeState.ALIVE)
                .orElse(homeAddress(membership).isEmpty());
    }
}
