package dev.distvm.objectspace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.SwitchPoint;

/**
 * Hooks that cost nothing until a node needs them: a method handle that does nothing while a
 * {@link SwitchPoint} is valid and calls the real hook once it is invalidated. Held in a static
 * final field, the handle is a constant to the JIT, which compiles the empty target into the
 * rewritten code and deoptimizes that code when the switch point goes (so that no loop keeps running
 * without the hook).
 */
final class SwitchedHooks {
    private SwitchedHooks() {}

    /** Nothing until {@code off} is invalidated, then the static method {@code name} of the class {@code lookup} is of. */
    static MethodHandle onceSwitched(SwitchPoint off, MethodHandles.Lookup lookup, String name, MethodType type) {
        try {
            return off.guardWithTest(MethodHandles.empty(type), lookup.findStatic(lookup.lookupClass(), name, type));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Calls a hook of type {@code (Object, int) void}. */
    static void call(MethodHandle hook, Object array, int index) {
        try {
            hook.invokeExact(array, index);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Calls a hook of type {@code (Object) void}. */
    static void call(MethodHandle hook, Object array) {
        try {
            hook.invokeExact(array);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
