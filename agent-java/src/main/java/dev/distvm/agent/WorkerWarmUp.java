package dev.distvm.agent;

import dev.distvm.common.ChildJvm;
import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.objectspace.ObjectSpace;
import dev.distvm.transport.CipherWarmUp;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * What a worker does while it waits for its first thread: it loads the classes that placing a
 * thread needs (the object space, the rewriter and its ASM) and rewrites a few classes as it will
 * the program's, so that the first thread placed here does not wait for that. On a node with a
 * fraction of a CPU this took a quarter of a second of CPU, which is a second or more of the run.
 * It runs at the lowest priority and loads dist's classes without initializing them; the default
 * time zone and locale it reads are what the first thread's start reads here anyway before the
 * thread runs: it changes nothing a program could see. A worker whose links are encrypted also
 * gets the frame cipher compiled ({@link CipherWarmUp}): its first thread's message, often
 * megabytes of arrays, opened at a twentieth of the cipher's compiled speed.
 */
final class WorkerWarmUp implements Runnable {
    /** Loaded, not initialized: the packages a placed thread's first moments go through (ASM loads as the subjects are rewritten). */
    private static final List<String> PACKAGES = List.of("dev/distvm/objectspace/", "dev/distvm/rewriter/",
            "dev/distvm/io/", "dev/distvm/report/");
    /** Rewritten and thrown away: classes with the shapes of application code (fields, arrays, monitors, threads). */
    private static final List<String> SUBJECTS = List.of("dev/distvm/objectspace/WorkerSpace.class",
            "dev/distvm/objectspace/ThreadsPlacedHere.class", "dev/distvm/objectspace/Twin.class");

    private final boolean encrypted;

    private WorkerWarmUp(boolean encrypted) {
        this.encrypted = encrypted;
    }

    /** Starts the warm-up of a worker whose endpoint encrypts its connections or not. */
    static void start(boolean encrypted) {
        Thread thread = DaemonThreads.start("dist-warm-up", new WorkerWarmUp(encrypted));
        thread.setPriority(Thread.MIN_PRIORITY);
    }

    @Override
    public void run() {
        try {
            loadClasses();
            ObjectSpace.prepareWorkerThreads();
            for (String subject : SUBJECTS) {
                try (InputStream in = ClassLoader.getSystemResourceAsStream(subject)) {
                    if (in != null) {
                        ApplicationTransformer.rewriteAsApplication(ClassLoader.getSystemClassLoader(), in.readAllBytes(),
                                subject.substring(0, subject.lastIndexOf('/') + 1));
                    }
                }
            }
            if (encrypted && !CipherWarmUp.run()) {
                Log.debug("the frame cipher was not running compiled by the end of the worker's warm-up");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException | LinkageError e) {
            Log.debug("the worker's warm-up stopped: " + e); // it only saves time: the first thread does it instead
        }
    }

    private static void loadClasses() throws IOException {
        Path jar = ChildJvm.distJar();
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                String name = entries.nextElement().getName();
                if (name.endsWith(".class") && PACKAGES.stream().anyMatch(name::startsWith)) {
                    try {
                        Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'), false, loader);
                    } catch (ClassNotFoundException | LinkageError e) {
                        // a class this JVM cannot load is loaded (and reported) when it is used, if ever
                    }
                }
            }
        }
    }
}
