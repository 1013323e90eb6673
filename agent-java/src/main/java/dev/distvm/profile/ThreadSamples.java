package dev.distvm.profile;

import java.util.Arrays;

/**
 * One thread's samples: per site, how many sampled accesses and how many of them would be remote
 * ({@link SharingTable}). Only its thread writes it; the report reads it once sampling ended.
 */
final class ThreadSamples {
    final String threadName;
    final long threadId;
    private final Profile profile;
    /** {@code [2 * site]}: samples at the site; {@code [2 * site + 1]}: those that would be remote. */
    private volatile long[] counts = new long[64];

    ThreadSamples(Thread thread, Profile profile) {
        this.threadName = thread.getName();
        this.threadId = thread.getId();
        this.profile = profile;
    }

    void record(Object target, int site) {
        long[] here = counts;
        if (2 * site + 1 >= here.length) {
            here = Arrays.copyOf(here, Math.max(2 * here.length, 2 * site + 2));
            counts = here;
        }
        here[2 * site]++;
        SiteTable.Site where = profile.sites.site(site);
        Object key = target != null ? target : where.staticsKey();
        if (profile.sharing.touch(key, threadId, where.writes())) {
            here[2 * site + 1]++;
        }
    }

    long samples(int site) {
        long[] here = counts;
        return 2 * site < here.length ? here[2 * site] : 0;
    }

    long remote(int site) {
        long[] here = counts;
        return 2 * site + 1 < here.length ? here[2 * site + 1] : 0;
    }
}
