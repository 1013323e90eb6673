package dev.distvm.mpi.engine;

import dev.distvm.common.Log;
import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * This rank's place in an MPI job, found once at {@code MPI.Init}: in threads mode it was set up
 * by mpirun for the rank's thread; in processes mode the rank finds its peers through the
 * coordinator that mpirun started (environment variables below), each rank joining with its rank
 * and listening address as labels.
 */
public final class Job {
    public static final String RANK_ENV = "DIST_MPI_RANK";
    public static final String SIZE_ENV = "DIST_MPI_SIZE";
    public static final String COORDINATOR_ENV = "DIST_MPI_COORDINATOR";
    public static final String PARENT_ENV = "DIST_MPI_PARENT";
    /** Where the rank's membership endpoint listens: on the host of mpirun's --bind, so it may join its coordinator. */
    public static final String BIND_ENV = "DIST_MPI_BIND";
    static final String RANK_LABEL = "mpi.rank";
    static final String ADDRESS_LABEL = "mpi.address";
    /** How long a rank waits for all the others to join (milliseconds), set by mpirun's --start-timeout. */
    public static final String START_TIMEOUT_ENV = "DIST_MPI_START_TIMEOUT";
    public static final long DEFAULT_START_TIMEOUT_MILLIS = 120_000;

    /** Set by mpirun's threads mode on each rank's main thread; threads the rank starts inherit it. */
    private static final InheritableThreadLocal<Job> THREAD_RANK = new InheritableThreadLocal<>();

    private final Messenger messenger;
    private final Membership membership;
    private final Endpoint endpoint;

    private Job(Messenger messenger, Membership membership, Endpoint endpoint) {
        this.messenger = messenger;
        this.membership = membership;
        this.endpoint = endpoint;
    }

    public Messenger messenger() {
        return messenger;
    }

    /** A rank of a threads-mode job, attached to the hub; set it on the rank's thread with {@link #runAs}. */
    public static Job ofThread(SharedMemoryHub hub, int rank) {
        return new Job(new Messenger(rank, hub.size(), inbox -> hub.attach(rank, inbox)), null, null);
    }

    /** Makes {@code job} the job of the current thread and the threads it starts. */
    public static void runAs(Job job) {
        THREAD_RANK.set(job);
    }

    /**
     * The job of the calling rank.
     *
     * @throws IllegalStateException naming what is missing when this JVM was not started by mpirun
     */
    public static Job current() throws IOException, InterruptedException {
        Job job = THREAD_RANK.get();
        if (job != null) {
            return job;
        }
        String rank = System.getenv(RANK_ENV);
        String size = System.getenv(SIZE_ENV);
        String coordinator = System.getenv(COORDINATOR_ENV);
        ClusterSecret secret = ClusterSecret.fromEnvironment();
        if (rank == null || size == null || coordinator == null || secret == null) {
            return single();
        }
        return rendezvous(Integer.parseInt(rank), Integer.parseInt(size), coordinator, secret);
    }

    /**
     * Puts into {@code environment} what a rank process needs to find its job: its rank, the job's
     * size, secret and coordinator, the address its endpoints listen on ({@code tcp://HOST:0}) and
     * the process whose end is the rank's end (mpirun, or the daemon that started it).
     */
    public static void environment(Map<String, String> environment, ClusterSecret secret, int rank, int size,
                                   String coordinator, String bind, long parent, long startTimeoutMillis) {
        environment.put(ClusterSecret.ENV, secret.value());
        environment.put(RANK_ENV, String.valueOf(rank));
        environment.put(SIZE_ENV, String.valueOf(size));
        environment.put(COORDINATOR_ENV, coordinator);
        environment.put(BIND_ENV, bind);
        environment.put(PARENT_ENV, String.valueOf(parent));
        environment.put(START_TIMEOUT_ENV, String.valueOf(startTimeoutMillis));
    }

    /** A program started without mpirun is a job of one rank, as with most MPI implementations. */
    private static Job single() {
        SharedMemoryHub hub = new SharedMemoryHub(1);
        return ofThread(hub, 0);
    }

    private static Job rendezvous(int rank, int size, String coordinator, ClusterSecret secret)
            throws IOException, InterruptedException {
        watchParent();
        String bind = System.getenv(BIND_ENV);
        TransportConfig config = bind == null ? TransportConfig.loopback(secret)
                : TransportConfig.loopback(secret).withBindAddress(bind);
        // The rank's own socket listens on the same host as its membership endpoint: on another
        // host's address when mpirun placed it there, so that ranks of other hosts reach it.
        String host = TcpAddress.withoutPort(config.bindAddress()).substring("tcp://".length());
        ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(host, 0));
        InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
        Endpoint endpoint = Endpoint.open(config);
        Messenger[] messenger = new Messenger[1];
        Membership membership;
        try {
            membership = Membership.join(endpoint, coordinator, Role.WORKER,
                    Map.of(RANK_LABEL, String.valueOf(rank), ADDRESS_LABEL, host + ":" + bound.getPort()),
                    new Membership.Listener() {
                        @Override
                        public void changed(NodeInfo node) {
                            // Only a death is news: a rank that finalized sent all it will send, and
                            // its last messages may still be on their way (so nothing may fail on LEFT).
                            String lost = node.getLabelsMap().get(RANK_LABEL);
                            if (lost != null && node.getState() == NodeState.DEAD && messenger[0] != null) {
                                messenger[0].fail("rank " + lost + " died (pid "
                                        + node.getPid() + ")");
                            }
                        }

                        @Override
                        public void lost(String reason) {
                            if (messenger[0] != null) {
                                messenger[0].fail("the job's coordinator is gone: " + reason);
                            }
                        }
                    });
        } catch (TransportException e) {
            endpoint.close();
            listener.close();
            throw new IOException("rank " + rank + " could not join its job at " + coordinator + ": " + e.getMessage(), e);
        }
        Duration startTimeout = startTimeout();
        // A rank that died before all had joined ends the wait at once, and the message says so.
        if (!membership.await(known -> ranksIn(known) >= size || deadRank(known) != null, startTimeout)) {
            throw new IOException("only " + ranksIn(membership.alive()) + " of " + size + " ranks started within "
                    + startTimeout.toMillis() + " ms (mpirun --start-timeout); is the machine overloaded, or did a"
                    + " rank fail to start? mpirun shows its output");
        }
        NodeInfo dead = deadRank(membership.known());
        if (dead != null) {
            throw new IOException("rank " + dead.getLabelsMap().get(RANK_LABEL) + " (pid " + dead.getPid() + " on "
                    + dead.getHost() + ") died while the job started");
        }
        List<InetSocketAddress> addresses = addresses(membership, size);
        messenger[0] = new Messenger(rank, size,
                inbox -> Messenger.opened(() -> new SocketDevice(rank, secret, listener, addresses, inbox)));
        return new Job(messenger[0], membership, endpoint);
    }

    private static Duration startTimeout() {
        String millis = System.getenv(START_TIMEOUT_ENV);
        return Duration.ofMillis(millis == null ? DEFAULT_START_TIMEOUT_MILLIS : Long.parseLong(millis));
    }

    private static NodeInfo deadRank(Collection<NodeInfo> nodes) {
        return nodes.stream().filter(n -> n.getLabelsMap().containsKey(RANK_LABEL) && n.getState() == NodeState.DEAD)
                .findFirst().orElse(null);
    }

    private static long ranksIn(Collection<NodeInfo> nodes) {
        return nodes.stream().filter(n -> n.getLabelsMap().containsKey(RANK_LABEL)).count();
    }

    private static List<InetSocketAddress> addresses(Membership membership, int size) {
        InetSocketAddress[] byRank = new InetSocketAddress[size];
        for (NodeInfo node : membership.known()) {
            String rank = node.getLabelsMap().get(RANK_LABEL);
            if (rank != null) {
                String hostPort = node.getLabelsMap().get(ADDRESS_LABEL);
                int colon = hostPort.lastIndexOf(':');
                byRank[Integer.parseInt(rank)] = new InetSocketAddress(hostPort.substring(0, colon),
                        Integer.parseInt(hostPort.substring(colon + 1)));
            }
        }
        return new ArrayList<>(List.of(byRank));
    }

    /** A rank ends with the mpirun that started it, however mpirun ends. */
    private static void watchParent() {
        String parent = System.getenv(PARENT_ENV);
        if (parent != null) {
            ProcessHandle.of(Long.parseLong(parent)).ifPresentOrElse(
                    p -> p.onExit().thenRun(Job::orphaned), Job::orphaned);
        }
    }

    private static void orphaned() {
        Log.warn("mpirun ended; this rank stops");
        Runtime.getRuntime().halt(1);
    }

    /** MPI.Finalize: leave the job; what this rank sent has been written to its sockets. */
    public void finish() {
        if (membership != null) {
            membership.leave();
            membership.close();
        }
        messenger.close();
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
