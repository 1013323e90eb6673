package dev.distvm.node;

import dev.distvm.fuzz.DecoderContract;
import dev.distvm.transport.Handler;
import java.nio.charset.StandardCharsets;

/**
 * A worker's request for a class or resource, as the home's class server answers it: a name that
 * is not a class path resource is refused, never looked up outside the class path.
 */
public final class ClassRequestFuzz {
    private static final ClassServer SERVER = new ClassServer(ClassRequestFuzz.class.getClassLoader());

    private ClassRequestFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        String resource = new String(input, StandardCharsets.UTF_8);
        DecoderContract.check(input, () -> SERVER.lookUp(resource), Handler.RefusedException.class);
    }
}
