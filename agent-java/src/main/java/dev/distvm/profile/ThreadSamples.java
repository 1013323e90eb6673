package dev.distvm.profile;

import java.util.Arrays;

/**
 * One thread's samples: per site, how many sampled accesses and how many of them touched an object
 * another thread had touched. Only its thread writes it; the report reads it once sampling ended.
 * Sampling intervals are random around the period, so that a loop whose accesses repeat with the
 * period's length is not always sampled at the same site.
 */
final class ThreadSamples {
    final String threadName;
    final long threadId;
    private final Profile profile;
    /** {@code [2 * site]}: samples at the site; {@code [2 * site + 1]}: those that found the object shared. */
    private volatile long[] counts = new long[64];
    private int countdown;
    private long random;

    ThreadSamples(Thread thread, Profile profile) {
        this.threadName = thread.getName();
        this.threadId = thread.getId();
        this.profile = profile;
        this.random = threadId * 0x9E3779B97F4A7C15L + System.nanoTime() | 1;
        this.countdown = nextInterval();
    }

    void access(Object target, int site) {
        if (--countdown > 0) {
            return;
        }
        countdown = nextInterval();
        long[] here = counts;
        if (2 * site + 1 >= here.length) {
            here = Arrays.copyOf(here, Math.max(2 * here.length, 2 * site + 2));
            counts = here;
        }
        here[2 * site]++;
        Object key = target != null ? target : profile.sites.site(site).staticsKey();
        if (profile.sharing.touch(key, threadId)) {
            here[2 * site + 1]++;
        }
    }

    /** Uniform in [1, 2 * period - 1]: mean period. */
    private int nextInterval() {
        int period = profile.period;
        if (period == 1) {
            return 1;
        }
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        return 1 + (int) Long.remainderUnsigned(random, 2L * period - 1);
    }

    long samples(int site) {
        long[] here = counts;
        return 2 * site < here.length ? here[2 * site] : 0;
    }

    long shared(int site) {
        long[] here = counts;
        return 2 * site + 1 < here.length ? here[2 * site + 1] : 0;
    }
}
