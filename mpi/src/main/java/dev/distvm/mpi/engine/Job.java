package dev.distvm.mpi.engine;

import dev.distvm.common.Log;
import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
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
    private static final Duration RENDEZVOUS_TIMEOUT = Duration.ofSeconds(120);

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

    /** A program started without mpirun is a job of one rank, as with most MPI implementations. */
    private static Job single() {
        SharedMemoryHub hub = new SharedMemoryHub(1);
        return ofThread(hub, 0);
    }

    private static Job rendezvous(int rank, int size, String coordinator, ClusterSecret secret)
            throws IOException, InterruptedException {
        watchParent();
        ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
        String bind = System.getenv(BIND_ENV);
        Endpoint endpoint = Endpoint.open(bind == null ? TransportConfig.loopback(secret)
                : TransportConfig.loopback(secret).withBindAddress(bind));
        Messenger[] messenger = new Messenger[1];
        Membership membership;
        try {
            membership = Membership.join(endpoint, coordinator, Role.WORKER,
                    Map.of(RANK_LABEL, String.valueOf(rank), ADDRESS_LABEL, "127.0.0.1:" + bound.getPort()),
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
        if (!membership.await(known -> ranksIn(known) >= size, RENDEZVOUS_TIMEOUT)) {
            throw new IOException("only " + ranksIn(membership.alive()) + " of " + size + " ranks started within "
                    + RENDEZVOUS_TIMEOUT.toSeconds() + " s");
        }
        List<InetSocketAddress> addresses = addresses(membership, size);
        messenger[0] = new Messenger(rank, size,
                inbox -> Messenger.opened(() -> new SocketDevice(rank, secret, listener, addresses, inbox)));
        return new Job(messenger[0], membership, endpoint);
    }

    private static long ranksIn(Collection<NodeInfo> nodes) {
        return nodes.stream().filter(n -> n.getLabelsMap().containsKey(RANK_LABEL)).count();
    }

    private static List<InetSocketAddress> addresses(Membership membership, int size) {
        InetSocketAddress[] byRank = new InetSocketAddress[size];
        for (NodeInfo node : membership.known()) {
            String rank = node.getLabelsMap().get(RANK_LABEL);
            if (rank != null) {
                String[] hostPort = node.getLabelsMap().get(ADDRESS_LABEL).split(":");
                byRank[Integer.parseInt(rank)] = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
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
