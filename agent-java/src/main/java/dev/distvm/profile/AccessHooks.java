package dev.distvm.profile;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hook the profiling rewrite calls before each access ({@code AccessProfilingRewriter}); public
 * because application classes call it. Its fast path, inlined into the application's loops, is one
 * read of {@link #due} and a branch. A ticker sets {@code due} at the sampling rate, and the next
 * {@link #BURST} accesses, on whichever threads make them, are recorded: at a random instant, what
 * runs is caught in proportion to how often it runs, and threads that touch one object at that
 * instant are all caught touching it (one sample per tick would rarely see two threads on an object
 * that lives a few milliseconds). A burst whose first access comes long after its tick is dropped:
 * it would catch what runs first on waking from idle time, not what runs most. Counting every access
 * keeps {@code due} set. Between windows, and in frames that still run rewritten code after the
 * rewrite was removed, {@code due} stays clear.
 */
public final class AccessHooks {
    /** Accesses recorded per tick. */
    static final int BURST = 32;
    /** A burst not begun this soon after its tick followed idle time. */
    private static final long LATE_NANOS = 200_000;
    private static final AtomicInteger BURST_LEFT = new AtomicInteger();
    /** Samples are wanted: the next accesses, on any thread, take them. */
    private static volatile boolean due;
    private static volatile long tickNanos;
    private static volatile Profile profile;
    /**
     * The slow path, called through a handle the JIT cannot see through: inlined into every access
     * site of the application's loops, it made the ray tracer 5.6x slower under the sampler, against
     * 3.1x called (perf/RESULTS.md). Not final, on purpose.
     */
    private static MethodHandle sampler;

    static {
        try {
            sampler = MethodHandles.lookup().findStatic(AccessHooks.class, "sample",
                    MethodType.methodType(void.class, Object.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private AccessHooks() {}

    public static void access(Object target, int site) {
        if (due) {
            try {
                sampler.invokeExact(target, site);
            } catch (Throwable e) {
                // sample throws nothing of its own; an Error (out of memory, stack overflow) is the application's
                if (e instanceof Error error) {
                    throw error;
                }
            }
        }
    }

    private static void sample(Object target, int site) {
        Profile now = profile;
        if (now == null) {
            return;
        }
        if (!now.everyAccess()) {
            int left = BURST_LEFT.getAndDecrement();
            boolean late = left == BURST && System.nanoTime() - tickNanos > LATE_NANOS;
            if (left <= 1 || late) {
                due = false;
            }
            if (left <= 0 || late) {
                return;
            }
        }
        try {
            now.current().record(target, site);
        } catch (RuntimeException e) {
            // a sample lost; the application's access goes on
        }
    }

    static void start(Profile window) {
        profile = window;
        due = window.everyAccess();
    }

    /** The ticker's call: the next accesses are recorded. */
    static void tick() {
        BURST_LEFT.set(BURST);
        tickNanos = System.nanoTime();
        due = true;
    }

    static void stop() {
        profile = null;
        due = false;
    }
}
