package dev.distvm.exit;

import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;

/** Ends this JVM from any thread, without waiting on the thread that asked (it may be the transport loop). */
public final class Exits {
    /**
     * The run's status when dist cannot run it coherently on some node (an object it cannot share,
     * a native call on a worker, a release the home cannot apply): {@code EX_SOFTWARE} of sysexits.h.
     */
    public static final int CANNOT_RUN_COHERENTLY = 70;
    /**
     * The status of a node the cluster expelled (declared dead while it was paused or cut off):
     * it stops rather than compute on beside the run that went on without it.
     */
    public static final int EXPELLED = 3;
    /**
     * The run's status when a node died (or became unreachable for good) while it ran application
     * threads, whose work is then lost: {@code EX_UNAVAILABLE} of sysexits.h.
     */
    public static final int NODE_LOST = 69;
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
        Thread exit = new Thread(DaemonThreads.group(), () -> {
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
