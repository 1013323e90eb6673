package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

final class Locks {
    private Locks() {}

    /** Fails if {@code lock}'s JVM monitor is still held: another thread must be able to take it. */
    static void assertAnotherThreadCanLock(Object lock) throws Exception {
        assertTrue(CompletableFuture.supplyAsync(() -> {
            synchronized (lock) {
                return true;
            }
        }).get(10, TimeUnit.SECONDS));
    }
}
