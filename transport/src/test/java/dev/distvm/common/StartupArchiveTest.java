package dev.distvm.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupArchiveTest {
    @TempDir
    Path build;

    @Test
    void theArchiveIsNamedAfterThisJdkBesideDistJar() {
        Path archive = StartupArchive.of(build.resolve("dist.jar"));
        assertEquals(build.resolve("cds"), archive.getParent());
        assertTrue(archive.getFileName().toString().startsWith("dist-" + Runtime.version().feature()),
                archive.getFileName() + " names another JDK");
    }

    @Test
    void anArchiveIsUsedOnlyWhenItWasWrittenAfterDistJar() throws Exception {
        Path distJar = Files.writeString(build.resolve("dist.jar"), "a jar");
        assertEquals(List.of(), StartupArchive.jvmOptions(distJar), "there is no archive yet");

        Path archive = StartupArchive.of(distJar);
        Files.createDirectories(archive.getParent());
        Files.writeString(archive, "an archive");
        Instant written = Instant.parse("2026-11-24T10:00:00Z");
        Files.setLastModifiedTime(distJar, FileTime.from(written));
        Files.setLastModifiedTime(archive, FileTime.from(written.plusSeconds(5)));
        assertEquals(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off"), StartupArchive.jvmOptions(distJar));

        // dist.jar rebuilt since: a JVM given the old archive would ignore the JDK's own as well.
        Files.setLastModifiedTime(distJar, FileTime.from(written.plusSeconds(60)));
        assertEquals(List.of(), StartupArchive.jvmOptions(distJar));
    }
}
