package dev.distvm.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** One profiling window's state: its sites, its sampling period, every thread's samples, the sharing table. */
final class Profile {
    final SiteTable sites = new SiteTable();
    final SharingTable sharing = new SharingTable();
    final int period;
    private final Queue<ThreadSamples> threads = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<ThreadSamples> current = ThreadLocal.withInitial(this::register);

    Profile(int period) {
        this.period = period;
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
