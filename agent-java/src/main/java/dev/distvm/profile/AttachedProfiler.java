package dev.distvm.profile;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One profiling window in a JVM dist was attached to: reports back to the attaching command over
 * loopback, rewrites the application's loaded classes (retransformation), samples for the window's
 * length or until the command goes away, then removes its rewrite (the classes get their own bytes
 * back) and sends the report. Nothing is printed in the target, and no failure ends it: whatever
 * goes wrong is reported to the attaching command and the classes are given back.
 *
 * <p>Lines to the command: {@code token HEX} first, then {@code say TEXT}, {@code error TEXT},
 * {@code report TEXT}, one {@code json TEXT}, and {@code end}.
 */
public final class AttachedProfiler {
    private static final int CONNECT_MILLIS = 10_000;
    private static final int RETRANSFORM_BATCH = 200;
    private static final Object ONE_WINDOW = new Object();
    private static boolean windowOpen;

    private final ProfileOptions options;
    private final Instrumentation instrumentation;
    private final Socket socket;
    private final Writer out;

    private AttachedProfiler(ProfileOptions options, Instrumentation instrumentation, Socket socket) throws IOException {
        this.options = options;
        this.instrumentation = instrumentation;
        this.socket = socket;
        this.out = new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Connects to the attaching command and starts the window in a daemon thread of its own (the
     * attach returns at once).
     *
     * @throws IOException when the attaching command cannot be reached: there is nobody to report to
     */
    public static void start(ProfileOptions options, Instrumentation instrumentation) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.reportPort()), CONNECT_MILLIS);
            AttachedProfiler profiler = new AttachedProfiler(options, instrumentation, socket);
            profiler.send("token", options.token());
            synchronized (ONE_WINDOW) {
                if (windowOpen) {
                    profiler.send("error", "this JVM is being profiled already (by another ./dist attach); try again once it ends");
                    profiler.send("end", "");
                    socket.close();
                    return;
                }
                windowOpen = true;
            }
            Thread window = new Thread(profiler::run, "dist-profiler");
            window.setDaemon(true);
            window.start();
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private void run() {
        Profile profile = new Profile(options.samplesPerSecond(), mainThread());
        ProfilingTransformer transformer = new ProfilingTransformer(profile.sites);
        try {
            if (!instrumentation.isRetransformClassesSupported()) {
                send("error", "this JVM cannot retransform classes, so dist cannot profile it");
                return;
            }
            profile.start();
            instrumentation.addTransformer(transformer, true);
            List<Class<?>> chosen = new ArrayList<>();
            for (Class<?> type : instrumentation.getAllLoadedClasses()) {
                if (instrumentation.isModifiableClass(type) && !type.isArray() && !type.isHidden()
                        && transformer.isProfiled(type.getClassLoader(), type.getName().replace('.', '/'))) {
                    chosen.add(type);
                }
            }
            retransform(chosen);
            send("say", String.format("profiling %d classes of pid %d for %.1f s, %s", chosen.size() - transformer.failures(),
                    ProcessHandle.current().pid(), options.durationMillis() / 1000.0, profile.everyAccess()
                            ? "counting every access" : "sampling " + profile.rate + " bursts of accesses a second"));
            boolean commandLeft = awaitEndOfWindow();
            profile.stop();
            instrumentation.removeTransformer(transformer);
            List<Class<?>> rewritten = transformer.rewritten(instrumentation.getAllLoadedClasses());
            retransform(rewritten);
            if (commandLeft) {
                return;
            }
            long millis = (System.nanoTime() - profile.startNanos) / 1_000_000;
            send("say", "profile ended; " + rewritten.size() + " classes have their own code back");
            ProfileReport report = new ProfileReport(profile, "pid " + ProcessHandle.current().pid() + " ("
                    + ManagementFactory.getRuntimeMXBean().getVmName() + " " + Runtime.version() + ")", millis,
                    rewritten.size(), transformer.failures());
            for (String line : report.summary().split("\n")) {
                send("report", line);
            }
            send("json", report.json());
        } catch (Throwable e) {
            AccessHooks.stop();
            profile.stopTicking();
            instrumentation.removeTransformer(transformer);
            try {
                retransform(transformer.rewritten(instrumentation.getAllLoadedClasses()));
                send("error", "profiling failed, the classes have their own code back: " + e);
            } catch (Throwable again) {
                sendQuietly("error", "profiling failed (" + e + ") and giving the classes their own code back failed too: "
                        + again + "; frames of rewritten code run on with hooks that do nothing");
            }
        } finally {
            sendQuietly("end", "");
            try {
                socket.close();
            } catch (IOException ignored) {
                // the command is gone: nothing left to tell it
            }
            synchronized (ONE_WINDOW) {
                windowOpen = false;
            }
        }
    }

    /** The thread named main of the main thread group: most programs' main thread, or null when it ended. */
    private static Thread mainThread() {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("main") && thread.getThreadGroup() != null
                    && thread.getThreadGroup().getName().equals("main")) {
                return thread;
            }
        }
        return null;
    }

    /**
     * Classes in batches, and a batch that fails one class at a time, so that one class the JVM
     * refuses (verification, a class being redefined by another agent) does not stop the others.
     */
    private void retransform(List<Class<?>> classes) {
        for (int from = 0; from < classes.size(); from += RETRANSFORM_BATCH) {
            List<Class<?>> batch = classes.subList(from, Math.min(classes.size(), from + RETRANSFORM_BATCH));
            try {
                instrumentation.retransformClasses(batch.toArray(Class<?>[]::new));
            } catch (Throwable batchFailed) {
                for (Class<?> type : batch) {
                    try {
                        instrumentation.retransformClasses(type);
                    } catch (Throwable e) {
                        sendQuietly("say", "could not retransform " + type.getName() + ": " + e);
                    }
                }
            }
        }
    }

    /** Waits out the window; returns early, with true, when the attaching command closed its end (Ctrl-C). */
    private boolean awaitEndOfWindow() throws IOException {
        long end = System.nanoTime() + options.durationMillis() * 1_000_000;
        InputStream in = socket.getInputStream();
        while (true) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
            try {
                if (in.read() < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            }
        }
    }

    private synchronized void send(String kind, String text) throws IOException {
        out.write(kind);
        if (!text.isEmpty()) {
            out.write(' ');
            out.write(text.replace('\n', ' '));
        }
        out.write('\n');
        out.flush();
    }

    private void sendQuietly(String kind, String text) {
        try {
            send(kind, text);
        } catch (IOException ignored) {
            // the command is gone: nothing left to tell it
        }
    }
}
