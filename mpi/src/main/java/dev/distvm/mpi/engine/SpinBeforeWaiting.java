package dev.distvm.mpi.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * Whether a rank about to wait for a message should first spin for it. A thread that parks pays a
 * wake-up when the message comes (several microseconds on a virtual machine, more than the whole
 * hand-over between ranks of one JVM); one that spins pays nothing then, but holds a core. That is
 * worth it only while the machine has a core to spare: on a loaded machine the spinner takes the
 * core its peer needs to answer, and every wait costs the whole spin.
 *
 * <p>So a rank spins only while the machine's runnable threads (the kernel's count, read from
 * {@code /proc/loadavg} every few milliseconds by whichever rank finds the last reading stale)
 * number at most its cores plus one: the waiting thread, its peer and a short-lived helper (a
 * kernel worker moving loopback bytes, a compiler thread finishing) may all be counted on an
 * otherwise idle two-core machine, while two busy processes per core are many more. The smallest of
 * the last three readings decides, so that a helper's moment does not stop the spinning while a
 * hog that lasts does within a few readings. Where the count cannot be read, ranks never spin.
 *
 * <p>{@code -Ddist.mpi.spin=MICROS} sets the spin's length (0: never spin). Experiments that led
 * here are in {@code perf/RESULTS.md}: spinning without looking at the load made every hand-over
 * cost two whole spins under a CPU hog; backing off after a spin that missed its message instead
 * left two ranks that the scheduler had put on one core there for good, every later spin missing.
 */
final class SpinBeforeWaiting {
    /** Longer than nearly every hand-over between running ranks (one to a few microseconds), short next to a time slice. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("dist.mpi.spin", 50));
    private static final long READING_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final Path LOAD = Path.of("/proc/loadavg");
    /** The ranks of a JVM share one view of the machine. */
    static final SpinBeforeWaiting MACHINE = new SpinBeforeWaiting(SpinBeforeWaiting::runnableThreads,
            Runtime.getRuntime().availableProcessors(), SPIN_NANOS > 0, READING_PERIOD_NANOS);

    private final IntSupplier runnable;
    private final int cores;
    private final boolean enabled;
    private final long periodNanos;
    private final AtomicBoolean reading = new AtomicBoolean();
    /** The last readings; written only by the thread that holds {@link #reading}. */
    private final int[] recent = {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE};
    private int next;
    private volatile long readAt;
    private volatile boolean coreToSpare;

    /** @param runnable the machine's runnable threads, the asking one included ({@code Integer.MAX_VALUE} if unknown) */
    SpinBeforeWaiting(IntSupplier runnable, int cores, boolean enabled, long periodNanos) {
        this.runnable = runnable;
        this.cores = cores;
        this.enabled = enabled;
        this.periodNanos = periodNanos;
        this.readAt = System.nanoTime() - periodNanos - 1;
    }

    /** True if a wait should spin first: the machine had a core to spare when last read. */
    boolean admitted() {
        long now = System.nanoTime();
        if (now - readAt > periodNanos && reading.compareAndSet(false, true)) {
            try {
                recent[next] = runnable.getAsInt();
                next = (next + 1) % recent.length;
                coreToSpare = enabled && Arrays.stream(recent).min().orElseThrow() <= cores + 1;
                readAt = now;
            } finally {
                reading.set(false);
            }
        }
        return coreToSpare;
    }

    /** The kernel's count of runnable threads, the asking one included; more than any machine has cores if unknown. */
    private static int runnableThreads() {
        try {
            String[] fields = new String(Files.readAllBytes(LOAD), StandardCharsets.US_ASCII).split(" ");
            return Integer.parseInt(fields[3].substring(0, fields[3].indexOf('/')));
        } catch (IOException | RuntimeException e) {
            return Integer.MAX_VALUE;
        }
    }
}
