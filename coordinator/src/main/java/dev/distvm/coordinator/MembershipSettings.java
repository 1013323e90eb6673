package dev.distvm.coordinator;

import java.time.Duration;

/**
 * Timing of the membership protocol and its failure detection ({@link FailureDetector}).
 *
 * @param heartbeat         how often a node reports that it lives (with its load), and how often
 *                          nodes probe the peers they watch directly
 * @param failureTimeout    how long a suspect may stay silent before it is declared dead without
 *                          certain evidence of its death
 * @param askLocalProcesses whether the processes of this host are asked: a node of this very JVM is
 *                          never declared dead, and a suspect whose process here has exited is dead
 *                          at once; tests that simulate crashes inside one JVM turn it off
 */
public record MembershipSettings(Duration heartbeat, Duration failureTimeout, boolean askLocalProcesses) {
    /**
     * 30 s: above the longest pauses a healthy node makes on a loaded machine (a full GC of a
     * large heap, a 10 s SIGSTOP, JVMs starting on every core), and still short enough that a lost
     * host ends a run within a minute. A crash on a reachable host is found in seconds by evidence.
     */
    public static final Duration DEFAULT_FAILURE_TIMEOUT = Duration.ofSeconds(30);
    /** The range the command line and agent options accept: ten minutes is longer than any pause of a live JVM. */
    public static final int MIN_FAILURE_TIMEOUT_MILLIS = 200;
    public static final int MAX_FAILURE_TIMEOUT_MILLIS = 600_000;
    private static final Duration DEFAULT_HEARTBEAT = Duration.ofMillis(500);
    public static final MembershipSettings DEFAULT = withFailureTimeout(DEFAULT_FAILURE_TIMEOUT);

    public MembershipSettings(Duration heartbeat, Duration failureTimeout) {
        this(heartbeat, failureTimeout, true);
    }

    /** The same timing, deciding by silence and open ports alone. */
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
        Duration heartbeat = failureTimeout.dividedBy(4).compareTo(DEFAULT_HEARTBEAT) < 0
                ? failureTimeout.dividedBy(4) : DEFAULT_HEARTBEAT;
        return new MembershipSettings(heartbeat, failureTimeout);
    }

    /** A late heartbeat raises no doubt until it is this late: two beats missed. */
    Duration acceptablePause() {
        return heartbeat.multipliedBy(2);
    }

    /** The least spread the detector assumes in the intervals, however regular they have been. */
    Duration minStdDev() {
        return heartbeat.dividedBy(2);
    }

    /** How often the detector judges its nodes. */
    Duration checkPeriod() {
        Duration quarter = heartbeat.dividedBy(4);
        return quarter.toMillis() < 20 ? Duration.ofMillis(20) : quarter;
    }
}
