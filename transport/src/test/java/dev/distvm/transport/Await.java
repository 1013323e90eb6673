package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for what other threads bring about. The bounds are liveness bounds, deliberately generous
 * so that a slow or busy machine never fails a test; they are never a claim about speed.
 */
final class Await {
    static final Duration LIVENESS = Duration.ofSeconds(10);

    private Await() {}

    static void until(String what, BooleanSupplier condition) {
        until(condition, () -> what, LIVENESS);
    }

    static void until(BooleanSupplier condition, Supplier<String> what, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("not reached within " + within.toMillis() + " ms: " + what.get());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting for: " + what.get());
            }
        }
    }

    static <T> T result(CompletableFuture<T> future) {
        try {
            return future.get(LIVENESS.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("expected a result but the future failed with " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + LIVENESS.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The exception the future fails with, which must be a {@code type}; the bound is {@code within}. */
    static <X extends Throwable> X failure(CompletableFuture<?> future, Class<X> type, Duration within) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> {
            try {
                Object value = future.get(within.toMillis(), TimeUnit.MILLISECONDS);
                fail("expected a failure, got the result " + value);
            } catch (TimeoutException e) {
                fail("the future neither failed nor completed within " + within.toMillis() + " ms");
            }
        });
        if (!type.isInstance(failed.getCause())) {
            throw new AssertionError("expected a " + type.getSimpleName() + " but the future failed with "
                    + failed.getCause(), failed.getCause());
        }
        return type.cast(failed.getCause());
    }

    static <X extends Throwable> X failure(CompletableFuture<?> future, Class<X> type) {
        return failure(future, type, LIVENESS);
    }
}
