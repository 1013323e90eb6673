package dev.distvm.coordinator;

import dev.distvm.coordinator.proto.Role;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import java.net.BindException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A coordinator on an endpoint of its own and the nodes a test joins to it, all on loopback.
 * Closing it closes everything it opened, newest first, whatever the test's outcome.
 */
final class TestCluster implements AutoCloseable {
    /**
     * Quick failure detection, for the tests about it. Their nodes crash by falling silent inside
     * this JVM, whose process stays alive, so silence alone decides.
     */
    static final MembershipSettings QUICK = MembershipSettings.withFailureTimeout(Duration.ofMillis(600)).bySilenceAlone();
    /** For tests not about failure detection: a busy machine must never make a live node look dead. */
    static final MembershipSettings PATIENT = new MembershipSettings(Duration.ofMillis(100), Duration.ofSeconds(30));
    /** Slack on top of a failure timeout before a test gives up on hearing of a failure. */
    static final Duration MARGIN = Duration.ofSeconds(5);
    /** How long a test waits for something that needs no timeout to pass first. */
    static final Duration LIVENESS = Duration.ofSeconds(10);

    /** A node as a test sees it: its endpoint, its membership and what that membership reported. */
    record Node(Endpoint endpoint, Membership membership, RecordingListener events) {
        int id() {
            return membership.nodeId();
        }

        /** Stops the way a killed process does: no leave, no more heartbeats, nothing listening. */
        void crash() {
            membership.close();
            endpoint.close();
        }
    }

    private final ClusterSecret secret = ClusterSecret.random();
    private final MembershipSettings settings;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private Coordinator coordinator;

    private TestCluster(MembershipSettings settings) {
        this.settings = settings;
    }

    static TestCluster start(MembershipSettings settings) {
        TestCluster cluster = new TestCluster(settings);
        cluster.coordinator = cluster.startCoordinator(cluster.config());
        return cluster;
    }

    TransportConfig config() {
        return TransportConfig.loopback(secret);
    }

    private Coordinator startCoordinator(TransportConfig config) {
        Coordinator started = Coordinator.start(endpoint(config), settings);
        opened.push(started);
        return started;
    }

    Coordinator coordinator() {
        return coordinator;
    }

    String coordinatorAddress() {
        return coordinator.address();
    }

    MembershipSettings settings() {
        return settings;
    }

    /** Closes the coordinator and starts a new one, which knows no node, at the same address. */
    void restartCoordinator() throws InterruptedException {
        String address = coordinator.address();
        coordinator.close();
        // Endpoint.close returns before the port is free: the socket is only released once the
        // thread blocked in accept() has woken up, so the first attempts to bind may find it in use.
        long deadline = System.nanoTime() + LIVENESS.toNanos();
        while (true) {
            try {
                coordinator = startCoordinator(config().withBindAddress(address));
                return;
            } catch (TransportException e) {
                if (!(e.getCause() instanceof BindException) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(10);
            }
        }
    }

    Endpoint endpoint() {
        return endpoint(config());
    }

    Endpoint endpoint(ClusterSecret otherSecret) {
        return endpoint(TransportConfig.loopback(otherSecret));
    }

    private Endpoint endpoint(TransportConfig config) {
        Endpoint endpoint = Endpoint.open(config);
        opened.push(endpoint);
        return endpoint;
    }

    Node join(Role role) {
        return join(endpoint(), role);
    }

    Node join(Endpoint endpoint, Role role) {
        return join(endpoint, coordinatorAddress(), role, new RecordingListener());
    }

    /** Joins the coordinator at {@code coordinatorAddress}, which need not be this cluster's. */
    Node join(Endpoint endpoint, String coordinatorAddress, Role role, RecordingListener events) {
        Membership membership = Membership.join(endpoint, coordinatorAddress, role, events);
        opened.push(membership);
        return new Node(endpoint, membership, events);
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
