package dev.distvm.fuzz;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;

/**
 * Every fuzz target behind one: an input's first byte picks the target ({@link FuzzTargets#all()},
 * modulo their number), the rest is that target's input. Starting Jazzer's JVM and instrumenting
 * the classes costs many seconds on a busy machine, so {@code ./dist test} pays for it once, and
 * the coverage the fuzzer sees shares its time among the decoders.
 */
public final class EveryDecoder {
    static final List<String> TARGETS = FuzzTargets.all();
    private static final MethodHandle[] ENTRIES = entries();

    private EveryDecoder() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        if (input.length == 0) {
            return;
        }
        ENTRIES[Byte.toUnsignedInt(input[0]) % ENTRIES.length].invokeExact(Arrays.copyOfRange(input, 1, input.length));
    }

    /** The target an input of this class goes to. */
    static String targetOf(byte[] input) {
        return TARGETS.get(Byte.toUnsignedInt(input[0]) % TARGETS.size());
    }

    private static MethodHandle[] entries() {
        MethodHandle[] entries = new MethodHandle[TARGETS.size()];
        for (int i = 0; i < entries.length; i++) {
            try {
                entries[i] = MethodHandles.publicLookup().findStatic(Class.forName(TARGETS.get(i)), "fuzzerTestOneInput",
                        MethodType.methodType(void.class, byte[].class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(TARGETS.get(i) + " has no public static void fuzzerTestOneInput(byte[])", e);
            }
        }
        return entries;
    }
}
