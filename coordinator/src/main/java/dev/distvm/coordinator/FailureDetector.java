package dev.distvm.coordinator;

import dev.distvm.common.Log;
import dev.distvm.coordinator.proto.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Suspect, then confirm. Each watched node's heartbeats feed a {@link PhiAccrual}; when its phi
 * passes {@link #PHI_THRESHOLD} it is a suspect, which is logged and makes the detector look for
 * {@link DeathEvidence} at each check. A suspect is declared dead when that evidence is certain, or
 * when it has been silent for the whole failure timeout. A node of this very JVM is never declared
 * dead here (with {@link MembershipSettings#askLocalProcesses()}): silence of its own process is
 * this process being slow. Silence during which this detector itself did not run (its process
 * paused or starved) is not counted: it says nothing of the others.
 *
 * <p>The coordinator runs one over every member; each node runs one over the peers it watches
 * directly ({@link PeerWatch}). Thread-safe.
 */
final class FailureDetector {
    /** Phi 8: a delay this long happens by chance once in 10^8 intervals of the history. */
    static final double PHI_THRESHOLD = 8;

    /** A node this detector declares dead, and why. */
    record Death(NodeInfo node, String cause) {}

    private static final class Watched {
        final NodeInfo node;
        final PhiAccrual arrivals;
        boolean suspected;
        long lastProbeNanos;

        Watched(NodeInfo node, PhiAccrual arrivals, long probedNanos) {
            this.node = node;
            this.arrivals = arrivals;
            this.lastProbeNanos = probedNanos;
        }
    }

    private final MembershipSettings settings;
    private final String watcher;
    private final Map<Integer, Watched> watched = new HashMap<>();
    private long lastCheckNanos;

    /** @param watcher who detects, for the log: "coordinator", "node 3" */
    FailureDetector(MembershipSettings settings, String watcher, long nowNanos) {
        this.settings = settings;
        this.watcher = watcher;
        this.lastCheckNanos = nowNanos;
    }

    /** Starts watching {@code node} (as if just heard from), unless it is watched already. */
    synchronized void watch(NodeInfo node, long nowNanos) {
        watched.computeIfAbsent(node.getId(), id -> new Watched(node, new PhiAccrual(settings.heartbeat().toNanos(),
                settings.minStdDev().toNanos(), settings.acceptablePause().toNanos(), nowNanos),
                nowNanos - settings.heartbeat().toNanos()));
    }

    /** A heartbeat (or a reply to a probe) from node {@code id}. */
    synchronized void heard(int id, long nowNanos) {
        Watched node = watched.get(id);
        if (node != null) {
            node.arrivals.heartbeat(nowNanos);
            if (node.suspected) {
                node.suspected = false;
                Log.debug(watcher + ": node " + id + " is heard from again; no longer suspected");
            }
        }
    }

    synchronized void forget(int id) {
        watched.remove(id);
    }

    /** Stops watching every node not in {@code ids}. */
    synchronized void forgetAllBut(Set<Integer> ids) {
        watched.keySet().retainAll(ids);
    }

    /**
     * Judges every watched node at {@code nowNanos} (a suspect's evidence is looked for at most once
     * a heartbeat); returns those now declared dead, which are no longer watched. Looking for
     * evidence may take up to a second per suspect (a connection attempt).
     */
    List<Death> check(long nowNanos) {
        List<Watched> suspects = suspects(nowNanos);
        long probing = System.nanoTime();
        List<Death> deaths = new ArrayList<>();
        for (Watched suspect : suspects) {
            long silentMillis = suspect.arrivals.silenceNanos(nowNanos) / 1_000_000;
            Optional<String> cause = silentMillis >= settings.failureTimeout().toMillis()
                    ? Optional.of("silent for " + silentMillis + " ms, past the failure timeout of "
                            + settings.failureTimeout().toMillis() + " ms")
                    : DeathEvidence.of(suspect.node, settings.askLocalProcesses())
                            .map(evidence -> "suspected after " + silentMillis + " ms of silence, and " + evidence);
            cause.ifPresent(c -> deaths.add(new Death(suspect.node, c)));
        }
        synchronized (this) {
            lastCheckNanos = nowNanos + (System.nanoTime() - probing); // time spent probing is not a pause
            deaths.removeIf(death -> watched.remove(death.node().getId()) == null); // heard of or forgotten meanwhile
        }
        return deaths;
    }

    /** The nodes suspected at the last check and not heard from since, with how long each has been silent (ms). */
    synchronized Map<Integer, Long> suspicions(long nowNanos) {
        Map<Integer, Long> silences = new TreeMap<>();
        watched.forEach((id, node) -> {
            if (node.suspected) {
                silences.put(id, node.arrivals.silenceNanos(nowNanos) / 1_000_000);
            }
        });
        return silences;
    }

    private synchronized List<Watched> suspects(long nowNanos) {
        long period = settings.checkPeriod().toNanos();
        long unaccounted = nowNanos - lastCheckNanos - 2 * period;
        lastCheckNanos = nowNanos;
        List<Watched> suspects = new ArrayList<>();
        for (Watched node : watched.values()) {
            if (unaccounted > 0) {
                node.arrivals.excuse(unaccounted, nowNanos);
            }
            if (settings.askLocalProcesses() && DeathEvidence.isThisProcess(node.node)) {
                continue;
            }
            double phi = node.arrivals.phi(nowNanos);
            if (phi >= PHI_THRESHOLD || node.arrivals.silenceNanos(nowNanos) >= settings.failureTimeout().toNanos()) {
                if (!node.suspected) {
                    node.suspected = true;
                    Log.debug(watcher + ": node " + node.node.getId() + " (" + node.node.getRole().name().toLowerCase()
                            + ", pid " + node.node.getPid() + ") suspected: silent for "
                            + node.arrivals.silenceNanos(nowNanos) / 1_000_000 + " ms (phi " + Math.round(phi) + ")");
                }
                if (nowNanos - node.lastProbeNanos >= settings.heartbeat().toNanos()
                        || node.arrivals.silenceNanos(nowNanos) >= settings.failureTimeout().toNanos()) {
                    node.lastProbeNanos = nowNanos; // evidence is looked for once a heartbeat, not at every check
                    suspects.add(node);
                }
            }
        }
        if (unaccounted > 0) {
            Log.debug(watcher + ": the failure detector did not run for " + (unaccounted + 2 * period) / 1_000_000
                    + " ms (this process was paused or starved); that time is not counted as anyone's silence");
        }
        return suspects;
    }
}
