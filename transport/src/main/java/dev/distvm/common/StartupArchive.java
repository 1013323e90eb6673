package dev.distvm.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the class-data-sharing archive of dist's start-up classes is, and the JVM option that uses
 * it. The archive holds the JDK's and dist.jar's classes that a node loads while it starts, parsed
 * and verified once: a node JVM maps them instead of loading them one by one, which takes about a
 * third off its start-up. It is only valid for the JDK that wrote it and for the dist.jar it was
 * written from, and a JVM given an archive that does not match ignores every archive, the JDK's
 * own included, so it is named after the JDK and used only when it is newer than dist.jar. The
 * {@code dist} script names and uses it the same way ({@code start_up_archive}) and writes it
 * ({@code dist archive}). It is written for JVMs with a Java agent ({@code java.instrument} among
 * their modules, as {@code -javaagent} adds it): only dist's nodes use it.
 */
public final class StartupArchive {
    private StartupArchive() {}

    /** The archive for this JVM's JDK and {@code distJar}: {@code cds/dist-<java.runtime.version>.jsa} beside it. */
    public static Path of(Path distJar) {
        String version = System.getProperty("java.runtime.version").replaceAll("[^A-Za-z0-9._+-]", "_");
        return distJar.resolveSibling("cds").resolve("dist-" + version + ".jsa");
    }

    /**
     * The options that make a JVM of this JDK with dist's Java agent use the archive, for a JVM
     * whose class path begins with {@code distJar} (the archive's classes come from there); none
     * when there is no archive written from this dist.jar. The archive's messages are off: some
     * JDKs print them on standard output, which is the program's, and an archive that cannot be
     * used only costs start-up time.
     */
    public static List<String> jvmOptions(Path distJar) {
        Path archive = of(distJar);
        try {
            if (Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(distJar)) >= 0) {
                return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off");
            }
        } catch (IOException e) {
            // no archive (or no readable jar): start without one
        }
        return List.of();
    }
}
