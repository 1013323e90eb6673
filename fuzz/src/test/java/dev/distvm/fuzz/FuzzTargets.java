package dev.distvm.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fuzz targets: the test classes named {@code *Fuzz}, each with Jazzer's
 * {@code public static void fuzzerTestOneInput(byte[])}, one per decoder. A new decoder is one
 * more such class; nothing else names it.
 */
final class FuzzTargets {
    private static final String SUFFIX = "Fuzz";

    private FuzzTargets() {}

    /** Their fully qualified names, sorted (so an index names the same target in every run of one build). */
    static List<String> all() {
        Path classes = Path.of(FuzzTargets.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        try (Stream<Path> files = Files.walk(classes)) {
            return files.map(classes::relativize).map(Path::toString)
                    .filter(name -> name.endsWith(SUFFIX + ".class"))
                    .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the fuzz targets in " + classes, e);
        }
    }

    /** The index, among {@code count} targets, of the target an input of {@link EveryDecoder} goes to: its first byte's. */
    static int indexOf(byte[] input, int count) {
        return Byte.toUnsignedInt(input[0]) % count;
    }

    static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
