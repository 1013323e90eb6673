package dev.distvm.profile;

import java.util.Arrays;

/**
 * One thread's samples: per site, how many sampled accesses and how many of them would be remote
 * ({@link SharingTable}), with each thread on a node of its own and at each cluster size of the
 * what-if; per cluster size, remote samples by the writer's and this thread's node; stacks of
 * remote accesses. Only its thread writes it; the report reads it once sampling ended.
 */
final class ThreadSamples {
    /** Per site: samples, remote ones, remote ones at each cluster size of {@link PredictedPlacement}. */
    static final int COLUMNS = 2 + PredictedPlacement.NODE_COUNTS.length;
    /** Counting every access, one remote access in this many leaves its stack (each costs microseconds). */
    private static final int STACK_EVERY = 1024;

    final String threadName;
    final long threadId;
    /** This thread's node in each cluster of the what-if, packed ({@link PredictedPlacement}). */
    final int nodes;
    final long firstNanos = System.nanoTime();
    private long lastNanos = firstNanos;
    private final Profile profile;
    private volatile long[] counts = new long[64 * COLUMNS];
    /** {@code [cluster][writerNode * size + thisNode]}: remote samples at that cluster size. */
    private final long[][] nodePairs = new long[PredictedPlacement.NODE_COUNTS.length][];
    final StackTrie stacks = new StackTrie();
    private int remoteSinceStack;
    private int recorded;

    ThreadSamples(Thread thread, int nodes, Profile profile) {
        this.threadName = thread.getName();
        this.threadId = thread.getId();
        this.nodes = nodes;
        this.profile = profile;
        for (int cluster = 0; cluster < nodePairs.length; cluster++) {
            int size = PredictedPlacement.NODE_COUNTS[cluster];
            nodePairs[cluster] = new long[size * size];
        }
    }

    void record(Object target, int site) {
        long[] here = counts;
        int at = COLUMNS * site;
        if (at + COLUMNS > here.length) {
            here = Arrays.copyOf(here, Math.max(2 * here.length, at + COLUMNS));
            counts = here;
        }
        here[at]++;
        // A clock read is some 25 ns; counting every access, one record in 256 reads it.
        if (!profile.everyAccess() || (++recorded & 255) == 0) {
            lastNanos = System.nanoTime();
        }
        SiteTable.Site where = profile.sites.site(site);
        Object key = target != null ? target : where.staticsKey();
        int answer = profile.sharing.touch(key, threadId, nodes, where.writes());
        if (answer != 0) {
            remote(answer, at, here);
        }
    }

    private void remote(int answer, int at, long[] here) {
        here[at + 1]++;
        if (profile.everyAccess() ? ++remoteSinceStack % STACK_EVERY == 0 : profile.claimStack()) {
            stacks.addCurrentStack();
        }
        for (int cluster = 0; cluster < nodePairs.length; cluster++) {
            if (SharingTable.remoteAt(answer, cluster)) {
                here[at + 2 + cluster]++;
                int size = PredictedPlacement.NODE_COUNTS[cluster];
                nodePairs[cluster][SharingTable.writerNodeAt(answer, cluster) * size + PredictedPlacement.node(nodes, cluster)]++;
            }
        }
    }

    /** Column {@code column} of {@link #COLUMNS} at the site. */
    long count(int site, int column) {
        long[] here = counts;
        int at = COLUMNS * site + column;
        return at < here.length ? here[at] : 0;
    }

    long samples(int site) {
        return count(site, 0);
    }

    long remote(int site) {
        return count(site, 1);
    }

    long[] nodePairs(int cluster) {
        return nodePairs[cluster];
    }

    long lastNanos() {
        return lastNanos;
    }
}
