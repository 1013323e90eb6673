package dev.distvm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The detector's arithmetic, on made-up clocks: no time passes in these tests. */
class PhiAccrualTest {
    private static final long MS = 1_000_000;

    /** Heartbeats every {@code interval} ms, {@code count} of them, from t=0; returns the last arrival. */
    private static long beat(PhiAccrual phi, long interval, int count) {
        long t = 0;
        for (int i = 0; i < count; i++) {
            t += interval * MS;
            phi.heartbeat(t);
        }
        return t;
    }

    @Test
    void silenceOfExactlyTheMeanIsAsLikelyAsNot() {
        // P(interval >= mean) = 1/2 for a normal distribution: phi = -log10(0.5)
        assertEquals(Math.log10(2), PhiAccrual.phi(500, 500, 100), 0.001);
    }

    @Test
    void phiMatchesTheNormalTail() {
        // Standard normal: P(Z >= 1) = 0.1587, P(Z >= 2) = 0.02275, P(Z >= 3) = 0.00135
        assertEquals(0.799, PhiAccrual.phi(600, 500, 100), 0.01);
        assertEquals(1.643, PhiAccrual.phi(700, 500, 100), 0.01);
        assertEquals(2.870, PhiAccrual.phi(800, 500, 100), 0.05);
    }

    @Test
    void phiGrowsWithSilence() {
        double previous = -1;
        for (int silence = 0; silence <= 3000; silence += 100) {
            double phi = PhiAccrual.phi(silence, 1000, 200);
            assertTrue(phi > previous, "phi " + phi + " at " + silence + " after " + previous);
            previous = phi;
        }
    }

    @Test
    void regularBeatsRaiseNoDoubtWithinTheAcceptablePauseAndCertaintySoonAfter() {
        PhiAccrual phi = new PhiAccrual(500 * MS, 250 * MS, 1000 * MS, 0);
        long last = beat(phi, 500, 50);

        assertTrue(phi.phi(last + 500 * MS) < 1, "an on-time beat: phi " + phi.phi(last + 500 * MS));
        assertTrue(phi.phi(last + 1500 * MS) < 1, "two beats late, the acceptable pause: " + phi.phi(last + 1500 * MS));
        assertTrue(phi.phi(last + 5000 * MS) > FailureDetector.PHI_THRESHOLD,
                "ten beats late: " + phi.phi(last + 5000 * MS));
    }

    @Test
    void aHistoryOfIrregularBeatsDoubtsLessAtTheSameSilence() {
        PhiAccrual regular = new PhiAccrual(500 * MS, 50 * MS, 0, 0);
        PhiAccrual loaded = new PhiAccrual(500 * MS, 50 * MS, 0, 0);
        long lastRegular = beat(regular, 500, 100);
        long t = 0;
        for (int i = 0; i < 100; i++) {
            t += (i % 2 == 0 ? 100 : 1500) * MS; // a busy machine: beats bunched, then late
            loaded.heartbeat(t);
        }

        double silence = 2000 * MS;
        assertTrue(loaded.phi(t + (long) silence) < regular.phi(lastRegular + (long) silence),
                "loaded " + loaded.phi(t + (long) silence) + " vs regular " + regular.phi(lastRegular + (long) silence));
        assertTrue(loaded.phi(t + (long) silence) < FailureDetector.PHI_THRESHOLD);
    }

    @Test
    void theHistoryForgetsOldIntervals() {
        PhiAccrual phi = new PhiAccrual(500 * MS, 50 * MS, 0, 0);
        long t = beat(phi, 5000, 100); // long intervals, then a hundred short ones replace them all
        for (int i = 0; i < 100; i++) {
            t += 500 * MS;
            phi.heartbeat(t);
        }
        assertTrue(phi.phi(t + 2000 * MS) > FailureDetector.PHI_THRESHOLD, "phi " + phi.phi(t + 2000 * MS));
    }

    @Test
    void excusedTimeIsNotSilence() {
        PhiAccrual phi = new PhiAccrual(500 * MS, 250 * MS, 1000 * MS, 0);
        long last = beat(phi, 500, 20);
        long now = last + 20_000 * MS;

        phi.excuse(19_800 * MS, now);

        assertEquals(200 * MS, phi.silenceNanos(now));
        assertTrue(phi.phi(now) < 1);
        phi.excuse(Long.MAX_VALUE / 2, now);
        assertEquals(0, phi.silenceNanos(now), "never excused past now");
    }
}
