package dev.distvm.it;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polls for an outcome under a generous deadline that only guards against a hang. */
final class Deadline {
    static final Duration GENEROUS = Duration.ofSeconds(120);

    private Deadline() {}

    /** Waits until {@code check} gives a non-null value (or true), and returns it. */
    static <T> T await(String what, Callable<T> check) throws Exception {
        long deadline = System.nanoTime() + GENEROUS.toNanos();
        while (true) {
            T value = check.call();
            if (value != null && !Boolean.FALSE.equals(value)) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + GENEROUS.toSeconds() + " s: " + what);
            }
            Thread.sleep(200);
        }
    }
}
