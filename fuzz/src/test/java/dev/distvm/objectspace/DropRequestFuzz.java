package dev.distvm.objectspace;

import dev.distvm.fuzz.DecoderContract;
import java.io.UncheckedIOException;

/** A worker's request to forget copies it freed ({@link HomeSpace#drop}): a malformed one fails with UncheckedIOException. */
public final class DropRequestFuzz {
    private static final ClassLoader LOADER = DropRequestFuzz.class.getClassLoader();

    private DropRequestFuzz() {}

    public static void fuzzerTestOneInput(byte[] request) throws Throwable {
        DecoderContract.check(request, () -> new HomeSpace(1, LOADER).drop(2, request), UncheckedIOException.class);
    }
}
