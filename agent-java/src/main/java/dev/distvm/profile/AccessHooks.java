package dev.distvm.profile;

/**
 * The hook the profiling rewrite calls before each access ({@code AccessProfilingRewriter}); public
 * because application classes call it. Between windows, and in frames that still run rewritten
 * code after the rewrite was removed, it returns at once.
 */
public final class AccessHooks {
    private static volatile Profile profile;

    private AccessHooks() {}

    public static void access(Object target, int site) {
        Profile now = profile;
        if (now != null) {
            now.current().access(target, site);
        }
    }

    static void start(Profile window) {
        profile = window;
    }

    static void stop() {
        profile = null;
    }
}
