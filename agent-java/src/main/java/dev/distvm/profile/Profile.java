package dev.distvm.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One profiling window's state: its sites, its sampling rate, every thread's samples, the sharing
 * table, where each thread would be placed, and the ticker that asks for samples at the rate.
 */
final class Profile {
    final SiteTable sites = new SiteTable();
    final SharingTable sharing = new SharingTable();
    /** Samples asked per second; 0: every access is one. */
    final int rate;
    final long startNanos = System.nanoTime();
    private final PredictedPlacement placement;
    private final Queue<ThreadSamples> threads = new ConcurrentLinkedQueue<>();
    /** Threads dist would keep at the home on more nodes, by why (what their tasks reach). */
    private final Map<String, List<String>> keptHome = new ConcurrentHashMap<>();
    private final ThreadLocal<ThreadSamples> current = ThreadLocal.withInitial(this::register);

    private volatile boolean ticking;
    private Thread ticker;
    /** Ticks so far (only the ticker writes it), and the last tick whose burst left a stack. */
    private volatile long ticks;
    private final AtomicLong stackTick = new AtomicLong(-1);

    /** {@code main}: the thread running the program's main method (placed at the home), or null. */
    Profile(int rate, Thread main) {
        this.rate = rate;
        this.placement = new PredictedPlacement(main);
    }

    boolean everyAccess() {
        return rate == 0;
    }

    /** Starts sampling (the hooks, and the ticker unless every access is counted). */
    void start() {
        AccessHooks.start(this);
        if (!everyAccess()) {
            ticking = true;
            ticker = new Thread(this::tick, "dist-profiler-ticks");
            ticker.setDaemon(true);
            ticker.start();
        }
    }

    /** Stops sampling; once the ticker has ended, so that no late tick sets the hooks' flag again. */
    void stop() throws InterruptedException {
        stopTicking();
        if (ticker != null) {
            ticker.join();
        }
        AccessHooks.stop();
    }

    /** Tells the ticker to end, without waiting for it (a late tick then only costs the hooks' slow path a check). */
    void stopTicking() {
        ticking = false;
        if (ticker != null) {
            ticker.interrupt();
        }
    }

    private void tick() {
        long interval = 1_000_000_000L / rate;
        while (ticking) {
            LockSupport.parkNanos(interval);
            if (ticking) {
                ticks++;
                AccessHooks.tick();
            }
        }
    }

    /** {@code thread} is about to start: placed now, in start order, as dist would place it. */
    void starting(Thread thread) {
        placement.place(thread);
    }

    void keptHome(Thread thread, String reason) {
        placement.keepHome(thread);
        keptHome.computeIfAbsent(reason, why -> new CopyOnWriteArrayList<>()).add(thread.getName());
    }

    /** Why threads would be kept home, with the threads' names in the order they started. */
    Map<String, List<String>> keptHome() {
        return Map.copyOf(keptHome);
    }

    ThreadSamples current() {
        return current.get();
    }

    /**
     * Whether a remote access sampled now should leave its stack: the first to ask in each burst
     * (a stack costs microseconds; one a burst keeps the flame graph in proportion at about 1 %).
     */
    boolean claimStack() {
        long tick = ticks;
        long claimed = stackTick.get();
        return claimed != tick && stackTick.compareAndSet(claimed, tick);
    }

    private ThreadSamples register() {
        Thread thread = Thread.currentThread();
        ThreadSamples samples = new ThreadSamples(thread, placement.place(thread), this);
        threads.add(samples);
        return samples;
    }

    List<ThreadSamples> threads() {
        return new ArrayList<>(threads);
    }
}
