package mpitest;

import dev.distvm.mpi.launch.ThreadsJob;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** Runs a test MPI program as ranks in threads mode, in this JVM. */
public final class Ranks {
    private Ranks() {}

    /** Runs {@code program} with {@code ranks} ranks; fails with the ranks' error output unless all succeed. */
    public static void runThreads(int ranks, Class<?> program, String... args) throws InterruptedException {
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int exit = ThreadsJob.run(ranks, List.of(classesOf(program)), program.getName(), args,
                new PrintStream(errors, true, StandardCharsets.UTF_8));
        if (exit != 0) {
            throw new AssertionError(program.getSimpleName() + " on " + ranks + " ranks failed:\n"
                    + errors.toString(StandardCharsets.UTF_8));
        }
    }

    /** The class path entry (test classes directory) that holds {@code program}. */
    public static Path classesOf(Class<?> program) {
        try {
            return Path.of(program.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
