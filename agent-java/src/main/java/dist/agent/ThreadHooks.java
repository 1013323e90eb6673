package dist.agent;

import dist.node.ApplicationThreads;

/**
 * Called by rewritten application code in place of {@code Thread.start()} (see the rewriter's
 * {@code ThreadStartRewriter}). Public because application classes link to it.
 */
public final class ThreadHooks {
    private ThreadHooks() {}

    public static void start(Thread thread) {
        thread.start();
        ApplicationThreads.started(thread);
    }
}
