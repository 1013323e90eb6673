package dev.distvm.objectspace;

import java.util.function.Function;

/** Array stores as the rewritten program makes them, for tests that run a home and a worker space in one JVM. */
final class ProgramStores {
    private ProgramStores() {}

    /**
     * A store with its chunk marked where {@code side} finds the array's marks: a release or
     * refresh sees an unmarked store only while the array is newly shared (its first
     * millisecond), which a loaded machine may have passed already.
     */
    static void storeInt(int[] array, int index, int value, Function<Object, ArrayWrites> side) {
        ArrayStores.useRegistry(side);
        array[index] = value;
        Hooks.arrayStored(array, index);
    }
}
