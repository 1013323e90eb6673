package dev.distvm.objectspace;

/**
 * Per slot of a copy's twin, the number of this worker's last release that carried it (0: none
 * did), which a home message must not undo ({@link Twin#refresh}). Kept in chunks of 1024 slots
 * made when a release first carries one of theirs: a worker's releases carry few of a large array's
 * chunks, and a stamp for every element of the whole array was eight times a byte array's size (a
 * worker enciphering its eighth of three 16 MB arrays allocated 384 MB of stamps).
 */
final class Stamps {
    private static final int SHIFT = 10;
    private static final int MASK = (1 << SHIFT) - 1;
    private final long[][] chunks;

    Stamps(int slots) {
        chunks = new long[(slots + MASK) >>> SHIFT][];
    }

    long of(int slot) {
        long[] chunk = chunks[slot >>> SHIFT];
        return chunk == null ? 0 : chunk[slot & MASK];
    }

    void set(int slot, long release) {
        long[] chunk = chunks[slot >>> SHIFT];
        if (chunk == null) {
            chunk = chunks[slot >>> SHIFT] = new long[1 << SHIFT];
        }
        chunk[slot & MASK] = release;
    }

    /** Sets slots [from, to). */
    void set(int from, int to, long release) {
        for (int slot = from; slot < to; ) {
            int chunkEnd = Math.min(to, (slot | MASK) + 1);
            long[] chunk = chunks[slot >>> SHIFT];
            if (chunk == null) {
                chunk = chunks[slot >>> SHIFT] = new long[1 << SHIFT];
            }
            java.util.Arrays.fill(chunk, slot & MASK, ((chunkEnd - 1) & MASK) + 1, release);
            slot = chunkEnd;
        }
    }
}
