package dev.distvm.coordinator;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.PeerPing;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.RemoteErrorException;
import dev.distvm.transport.proto.ErrorCode;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A node's own failure detection of the peers it depends on (the home watches its workers, a
 * worker its home), so that the loss of the coordinator blinds nobody. It pings them over the
 * transport at the heartbeat rate and judges the replies with the same {@link FailureDetector}
 * rules as the coordinator. A peer that refuses the ping holds this node dead: this node was
 * expelled.
 */
final class PeerWatch implements AutoCloseable {
    /** What the watch concludes. Called on the watch's or transport threads: don't block. */
    interface Verdicts {
        void dead(NodeInfo peer, String cause);

        void expelled(String reason);
    }

    private final Endpoint endpoint;
    private final MembershipSettings settings;
    private final Supplier<List<NodeInfo>> peers;
    private final Verdicts verdicts;
    private final FailureDetector detector;
    private final ScheduledExecutorService pings;
    private final int self;

    /** Starts watching; {@code peers} says, at each round, which nodes to watch. */
    PeerWatch(Endpoint endpoint, int self, MembershipSettings settings, Supplier<List<NodeInfo>> peers,
              Verdicts verdicts) {
        this.endpoint = endpoint;
        this.self = self;
        this.settings = settings;
        this.peers = peers;
        this.verdicts = verdicts;
        this.detector = new FailureDetector(settings, "node " + self, System.nanoTime());
        this.pings = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-peer-watch"));
        pings.scheduleAtFixedRate(this::round, 0, settings.heartbeat().toMillis(), TimeUnit.MILLISECONDS);
        long period = settings.checkPeriod().toMillis();
        pings.scheduleAtFixedRate(this::judge, period, period, TimeUnit.MILLISECONDS);
    }

    /** A sign of life of {@code peer} that came another way (its own ping). */
    void heard(int peer) {
        detector.heard(peer, System.nanoTime());
    }

    private void round() {
        try {
            List<NodeInfo> now = peers.get();
            Set<Integer> ids = now.stream().map(NodeInfo::getId).collect(Collectors.toSet());
            for (NodeInfo peer : now) {
                detector.watch(peer, System.nanoTime());
                ping(peer);
            }
            detector.forgetAllBut(ids);
        } catch (RuntimeException e) {
            Log.warn("node " + self + ": peer watch: " + e);
        }
    }

    private void ping(NodeInfo peer) {
        PeerPing ping = PeerPing.newBuilder().setNodeId(self).build();
        endpoint.request(peer.getAddress(), MembershipType.PEER_PING_VALUE, ping, settings.failureTimeout())
                .whenComplete((reply, failure) -> {
                    if (failure == null) {
                        detector.heard(peer.getId(), System.nanoTime());
                    } else if (failure instanceof RemoteErrorException refused && refused.code() == ErrorCode.REFUSED) {
                        verdicts.expelled("node " + peer.getId() + " refused this node: " + refused.getMessage());
                    }
                });
    }

    private void judge() {
        try {
            for (FailureDetector.Death death : detector.check(System.nanoTime())) {
                verdicts.dead(death.node(), death.cause());
            }
        } catch (RuntimeException e) {
            Log.warn("node " + self + ": peer watch: " + e);
        }
    }

    @Override
    public void close() {
        pings.shutdown(); // not shutdownNow: an interrupt during a ping's write would close the connection
    }
}
