package dev.distvm.common;

import dev.distvm.common.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** What starting another JVM of dist's takes: the same java, the jar dist runs from, and its output forwarded. */
public final class ChildJvm {
    private ChildJvm() {}

    /** The java executable of this JVM, so that children run on the same JDK. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The jar dist's own classes were loaded from: dist.jar, or whichever jar shades this module
     * (perf.jar); in a build's tests, this module's classes directory.
     */
    public static Path distJar() {
        try {
            return Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where dist.jar is: " + e.getMessage(), e);
        }
    }

    /** Copies the lines of a child's stream to {@code to}, each after {@code prefix}, until the child closes it. */
    public static Thread forwardLines(InputStream from, PrintStream to, String prefix, String threadName) {
        return DaemonThreads.start(threadName, () -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    to.println(prefix + line);
                }
            } catch (IOException e) {
                // the child is gone: nothing more to forward
            }
        });
    }
}
