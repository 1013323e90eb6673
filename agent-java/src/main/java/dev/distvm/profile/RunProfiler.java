package dev.distvm.profile;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

/**
 * The profiler of a program run with {@code profile=FILE.json} ({@code ./dist run --profile}): the
 * profiling rewrite is applied to each application class as it is defined, before dist's own
 * rewrite (so the profile sees the program's accesses, not dist's), and the report is made when
 * the home ends: its summary on standard error, JSON in the file.
 */
public final class RunProfiler {
    private static volatile Profile profile;
    private static ProfilingTransformer transformer;

    private RunProfiler() {}

    /** Call before dist's own transformer is added: transformers run in the order they were added. */
    public static synchronized void install(Instrumentation instrumentation, int samplesPerSecond) {
        profile = new Profile(samplesPerSecond, Thread.currentThread()); // premain runs in the main thread
        transformer = new ProfilingTransformer(profile.sites);
        profile.start();
        instrumentation.addTransformer(transformer);
    }

    /**
     * Whether this run is profiled: the home then tells {@link #keptHome} and {@link #starting} at
     * each thread start.
     */
    public static boolean active() {
        return profile != null;
    }

    /**
     * A thread dist would keep at the home on more nodes, and why (what it runs reaches an object
     * dist cannot share): the what-if places it there.
     */
    public static void keptHome(Thread thread, String reason) {
        Profile now = profile;
        if (now != null) {
            now.keptHome(thread, reason);
        }
    }

    /**
     * {@code thread} is about to start at the home: the what-if places it now, in start order (at its
     * first sampled access, threads would be placed in the order they happen to get there).
     */
    public static void starting(Thread thread) {
        Profile now = profile;
        if (now != null) {
            now.starting(thread);
        }
    }

    /**
     * Ends the profile and reports it, if there is one: the summary as lines for standard error,
     * the JSON or the HTML report written to {@code file} ({@link ProfileFiles}).
     *
     * @return the summary, or null when this run is not profiled
     */
    public static synchronized String finish(Path file) throws IOException, InterruptedException {
        if (profile == null) {
            return null;
        }
        profile.stop();
        long millis = (System.nanoTime() - profile.startNanos) / 1_000_000;
        ProfileReport report = new ProfileReport(profile, "this run (pid " + ProcessHandle.current().pid() + ")", millis,
                transformer.rewrittenCount(), transformer.failures());
        profile = null;
        ProfileFiles.write(file, report.json());
        return report.summary();
    }
}
