package dev.distvm.coordinator;

/**
 * The phi-accrual suspicion level of one peer (Hayashi et al., 2004; the form Akka and Cassandra
 * use): how unlikely the present silence is, given the intervals at which the peer's heartbeats
 * have arrived so far. {@code phi = -log10(P(an interval at least this long))} under a normal
 * distribution of the intervals, so phi 8 means a chance of 1 in 10^8. The distribution learns a
 * loaded machine's slower, more irregular beats and so doubts less there; {@code acceptablePause}
 * is added to the mean so that a pause of that length (a full GC) raises no doubt at all, and
 * {@code minStdDev} keeps a perfectly regular history from doubting at the first late beat.
 *
 * <p>Not thread-safe: its owner serializes access.
 */
final class PhiAccrual {
    private static final int HISTORY = 100;

    private final long[] intervals = new long[HISTORY];
    private final double minStdDevNanos;
    private final double acceptablePauseNanos;
    private int count;
    private int next;
    private double sum;
    private double sumOfSquares;
    private long lastNanos;

    /** Starts with a history of two intervals of {@code expectedInterval}, so that phi is defined at once. */
    PhiAccrual(long expectedIntervalNanos, long minStdDevNanos, long acceptablePauseNanos, long nowNanos) {
        this.minStdDevNanos = minStdDevNanos;
        this.acceptablePauseNanos = acceptablePauseNanos;
        this.lastNanos = nowNanos;
        // A bootstrap spread of a quarter interval either side: a first beat somewhat late is no news.
        add(expectedIntervalNanos - expectedIntervalNanos / 4);
        add(expectedIntervalNanos + expectedIntervalNanos / 4);
    }

    /** A heartbeat arrived at {@code nowNanos}. */
    void heartbeat(long nowNanos) {
        add(Math.max(0, nowNanos - lastNanos));
        lastNanos = nowNanos;
    }

    /**
     * Moves the last arrival forward by {@code nanos} (never past {@code nowNanos}): time during
     * which the observer itself was not running, and so could not have heard anything.
     */
    void excuse(long nanos, long nowNanos) {
        lastNanos = Math.min(lastNanos + nanos, nowNanos);
    }

    long silenceNanos(long nowNanos) {
        return nowNanos - lastNanos;
    }

    double phi(long nowNanos) {
        double mean = sum / count + acceptablePauseNanos;
        double variance = Math.max(0, sumOfSquares / count - (sum / count) * (sum / count));
        double stdDev = Math.max(Math.sqrt(variance), minStdDevNanos);
        return phi(silenceNanos(nowNanos), mean, stdDev);
    }

    /**
     * -log10 of the normal distribution's upper tail at {@code silence}, with the logistic
     * approximation of the normal CDF that Akka uses (within 0.00014 of the CDF; exact to 0.05 in
     * phi up to three standard deviations, higher than exact beyond, which only suspects sooner),
     * which stays finite far into the tail where {@code 1 - cdf} would round to 0.
     */
    static double phi(double silence, double mean, double stdDev) {
        double y = (silence - mean) / stdDev;
        double e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
        return silence > mean ? -Math.log10(e / (1.0 + e)) : -Math.log10(1.0 - 1.0 / (1.0 + e));
    }

    private void add(long interval) {
        if (count == HISTORY) {
            long dropped = intervals[next];
            sum -= dropped;
            sumOfSquares -= (double) dropped * dropped;
        } else {
            count++;
        }
        intervals[next] = interval;
        next = (next + 1) % HISTORY;
        sum += interval;
        sumOfSquares += (double) interval * interval;
    }
}
