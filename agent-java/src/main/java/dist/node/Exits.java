package dist.node;

import dist.common.DaemonThreads;
import dist.common.Log;

/** Ends this JVM from any thread, without waiting on the thread that asked (it may be the transport loop). */
public final class Exits {
    private static final long HALT_AFTER_MILLIS = 3_000;

    private Exits() {}

    /** Blocks the calling thread until the JVM, which {@link #exitSoon} is ending, is gone. */
    public static void awaitExit() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // keep waiting for the end
            }
        }
    }

    public static void exitSoon(int status, String reason) {
        Thread exit = new Thread(() -> {
            Log.debug(reason);
            DaemonThreads.start("dist-halt", () -> {
                try {
                    Thread.sleep(HALT_AFTER_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                Runtime.getRuntime().halt(status);
            });
            System.exit(status);
        }, "dist-exit");
        exit.start();
    }
}
