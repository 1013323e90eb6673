package itapp.uncaught;

/**
 * Two threads, one after the other, end with an uncaught exception (one with a cause and a
 * suppressed exception) that the default handler prints: the trace printed at the home must be
 * the plain JVM's, line for line, wherever the thread ran.
 */
public final class ThrowsOnAWorker {
    private ThrowsOnAWorker() {}

    public static void main(String[] args) throws InterruptedException {
        for (int i = 0; i < 2; i++) {
            int mine = i;
            Thread thrower = new Thread(() -> fail(mine), "thrower-" + i);
            thrower.start();
            thrower.join();
        }
        System.out.println("done");
    }

    private static void fail(int which) {
        if (which == 0) {
            throw new IllegalStateException("plain failure");
        }
        IllegalArgumentException cause = new IllegalArgumentException("the cause");
        RuntimeException failure = new RuntimeException("wrapped", cause);
        failure.addSuppressed(new UnsupportedOperationException("suppressed"));
        throw failure;
    }
}
