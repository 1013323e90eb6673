package dev.distvm.node;

import dev.distvm.common.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A worker's temporary directory (the classes and resources it caches for the run), marked with
 * the pid of the process that owns it. A process killed with SIGKILL cannot remove its own, so
 * directories whose owner is gone are removed by whoever looks next: the home after it reaped its
 * workers, and every worker as it starts.
 */
public final class RunDirectory {
    static final String PREFIX = "dist-worker-";
    static final String OWNER_FILE = "owner.pid";

    private RunDirectory() {}

    /** Creates this process's directory, owner file first written, after sweeping away stale ones. */
    static Path create() throws IOException {
        sweepStale();
        Path directory = Files.createTempDirectory(PREFIX);
        Files.writeString(directory.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()),
                StandardCharsets.US_ASCII);
        return directory;
    }

    /**
     * Removes every worker directory whose owner process is gone. One without an owner file is
     * left alone: it may be one being created this instant.
     */
    static void sweepStale() {
        Path temp = Path.of(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> directories = Files.newDirectoryStream(temp, PREFIX + "*")) {
            for (Path directory : directories) {
                Optional<Long> owner = owner(directory);
                if (owner.isPresent() && !ProcessHandle.of(owner.get()).map(ProcessHandle::isAlive).orElse(false)) {
                    delete(directory);
                }
            }
        } catch (IOException | RuntimeException e) {
            Log.debug("could not look for stale worker directories in " + temp + ": " + e.getMessage());
        }
    }

    private static Optional<Long> owner(Path directory) {
        try {
            return Optional.of(Long.parseLong(Files.readString(directory.resolve(OWNER_FILE),
                    StandardCharsets.US_ASCII).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Removes {@code root} and what it holds, as far as it can (what stays is logged at debug level). */
    public static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            Log.debug("could not remove " + root + ": " + e.getMessage());
        }
    }
}
