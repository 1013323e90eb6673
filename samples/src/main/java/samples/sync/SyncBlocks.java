package samples.sync;

/**
 * Threads entering a {@code synchronized (counter)} block in a hot loop and updating the counter's
 * fields inside it, the client-side-locking shape (and the JGF synchronization microbenchmark's
 * block kernel): each thread first on a counter of its own, then all on one shared counter. Prints
 * the counts, checked against the calls made.
 *
 * <p>usage: SyncBlocks [threads] [calls per thread] [own|shared|both] (defaults 4, 50000, both)
 */
public final class SyncBlocks {
    private SyncBlocks() {}

    static final class BlockCaller extends Caller {
        BlockCaller(int id, Counter counter, long calls) {
            super("block-caller-" + id, counter, calls);
        }

        @Override
        void call(long value) {
            synchronized (counter) {
                counter.calls++;
                counter.sum += value;
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        HotLoops.run("synchronized block", args, BlockCaller::new);
    }
}
