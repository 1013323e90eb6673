package samples.sync;

/**
 * Threads calling a {@code synchronized} method in a hot loop, the shape of a synchronized counter,
 * cache or logger in a server (and of the JGF synchronization microbenchmark's method kernel): each
 * thread first on an object of its own, whose monitor nobody else takes, then all on one shared
 * object. Prints the counts, checked against the calls made.
 *
 * <p>usage: SyncMethods [threads] [calls per thread] [own|shared|both] (defaults 4, 50000, both)
 */
public final class SyncMethods {
    private SyncMethods() {}

    static final class MethodCaller extends Caller {
        MethodCaller(int id, Counter counter, long calls) {
            super("method-caller-" + id, counter, calls);
        }

        @Override
        void call(long value) {
            counter.add(value);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        HotLoops.run("synchronized method", args, MethodCaller::new);
    }
}
