package dev.distvm.common;

/**
 * dist's one log sink: a line on the JVM's standard error, prefixed so a user can tell dist's
 * words from the application's. Kept deliberately tiny: dist runs inside the user's JVM and must
 * not pull in or configure a logging framework the application may also use.
 */
public final class Log {
    private static volatile boolean verbose = Boolean.getBoolean("dist.verbose");

    private Log() {}

    public static void verbose(boolean on) {
        verbose = on;
    }

    public static boolean isVerbose() {
        return verbose;
    }

    public static void info(String message) {
        System.err.println("[dist] " + message);
    }

    public static void warn(String message) {
        System.err.println("[dist] warning: " + message);
    }

    public static void debug(String message) {
        if (verbose) {
            System.err.println("[dist] " + message);
        }
    }
}
