package dev.distvm.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One profiling window's state: its sites, its sampling rate, every thread's samples, the sharing
 * table, and the ticker that asks for samples at the rate.
 */
final class Profile {
    final SiteTable sites = new SiteTable();
    final SharingTable sharing = new SharingTable();
    /** Samples asked per second; 0: every access is one. */
    final int rate;
    private final Queue<ThreadSamples> threads = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<ThreadSamples> current = ThreadLocal.withInitial(this::register);

    private volatile boolean ticking;
    private Thread ticker;

    Profile(int rate) {
        this.rate = rate;
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
                AccessHooks.tick();
            }
        }
    }

    ThreadSamples current() {
        return current.get();
    }

    private ThreadSamples register() {
        ThreadSamples samples = new ThreadSamples(Thread.currentThread(), this);
        threads.add(samples);
        return samples;
    }

    List<ThreadSamples> threads() {
        return new ArrayList<>(threads);
    }
}
