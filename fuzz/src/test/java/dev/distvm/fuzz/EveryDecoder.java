package dev.distvm.fuzz;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;

/**
 * Every fuzz target behind one: an input's first byte picks the target
 * ({@link FuzzTargets#indexOf}), the rest is that target's input. Starting Jazzer's JVM and
 * instrumenting the classes costs many seconds on a busy machine, so {@code ./dist test} pays for
 * it once, and the coverage the fuzzer sees shares its time among the decoders.
 */
public final class EveryDecoder {
    private static final MethodHandle[] ENTRIES = entries(FuzzTargets.all());

    private EveryDecoder() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        if (input.length == 0) {
            return;
        }
        ENTRIES[FuzzTargets.indexOf(input, ENTRIES.length)].invokeExact(Arrays.copyOfRange(input, 1, input.length));
    }

    private static MethodHandle[] entries(List<String> targets) {
        MethodHandle[] entries = new MethodHandle[targets.size()];
        for (int i = 0; i < entries.length; i++) {
            try {
                entries[i] = MethodHandles.publicLookup().findStatic(Class.forName(targets.get(i)), "fuzzerTestOneInput",
                        MethodType.methodType(void.class, byte[].class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(targets.get(i) + " has no public static void fuzzerTestOneInput(byte[])", e);
            }
        }
        return entries;
    }
}
