package dev.distvm.coordinator;

import java.time.Duration;

/**
 * Timing of the membership protocol.
 *
 * @param heartbeat        how often a node reports that it lives (with its load)
 * @param failureTimeout   how long a silent node is given before it is suspected, and declared dead
 *                         unless its process is alive on this host ({@link LocalProcesses})
 * @param askLocalProcesses whether a silent node's process, and a silent coordinator's, is asked
 *                         before giving up on it; tests that simulate crashes inside one JVM turn it off
 */
public record MembershipSettings(Duration heartbeat, Duration failureTimeout, boolean askLocalProcesses) {
    public static final MembershipSettings DEFAULT = new MembershipSettings(Duration.ofMillis(500), Duration.ofSeconds(2));

    public MembershipSettings(Duration heartbeat, Duration failureTimeout) {
        this(heartbeat, failureTimeout, true);
    }

    /** The same timing, deciding by silence alone. */
    public MembershipSettings bySilenceAlone() {
        return new MembershipSettings(heartbeat, failureTimeout, false);
    }

    public MembershipSettings {
        if (heartbeat.toMillis() < 1) {
            throw new IllegalArgumentException("heartbeat interval must be at least 1 ms, got " + heartbeat);
        }
        if (failureTimeout.compareTo(heartbeat.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("failure timeout (" + failureTimeout.toMillis()
                    + " ms) must be at least two heartbeats (" + heartbeat.multipliedBy(2).toMillis() + " ms)");
        }
    }

    public static MembershipSettings withFailureTimeout(Duration failureTimeout) {
        Duration heartbeat = failureTimeout.dividedBy(4).compareTo(DEFAULT.heartbeat()) < 0
                ? failureTimeout.dividedBy(4) : DEFAULT.heartbeat();
        return new MembershipSettings(heartbeat, failureTimeout);
    }
}
