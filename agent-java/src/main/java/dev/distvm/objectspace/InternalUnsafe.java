package dev.distvm.objectspace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** Methods of {@code jdk.internal.misc.Unsafe}, which the agent exports to dist, bound to its instance. */
final class InternalUnsafe {
    private InternalUnsafe() {}

    /** The method {@code name} of that type, or null when the package is not exported to dist. */
    static MethodHandle method(String name, MethodType type) {
        try {
            Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
            Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
            return MethodHandles.lookup().findVirtual(unsafeClass, name, type).bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
