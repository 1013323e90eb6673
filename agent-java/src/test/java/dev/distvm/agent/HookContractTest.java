package dev.distvm.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.RuntimeHooks;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.Method;

/**
 * Every hook the rewriter emits exists on the runtime's hook class, as {@code public static} with
 * exactly the contract's name and descriptor, so a call the runtime cannot answer fails the build
 * instead of a run. Hooks and owner are read from the contract itself: a hook added there is checked
 * without being listed here.
 */
class HookContractTest {
    @Test
    void theRuntimeHasEveryHookOfTheContract() throws Exception {
        Class<?> owner = Class.forName(Type.getObjectType(RuntimeHooks.OWNER).getClassName());
        List<Method> hooks = contractHooks();
        assertTrue(hooks.size() > 20, "the contract's hooks were found: " + hooks);
        List<String> problems = new ArrayList<>();
        for (Method hook : hooks) {
            java.lang.reflect.Method implementation = implementationOf(owner, hook);
            if (implementation == null) {
                problems.add("missing: " + hook);
            } else if (!Modifier.isPublic(implementation.getModifiers()) || !Modifier.isStatic(implementation.getModifiers())) {
                problems.add("not public static: " + hook);
            }
        }
        assertEquals(List.of(), problems, owner.getName() + " against " + RuntimeHooks.class.getName());
    }

    private static List<Method> contractHooks() throws IllegalAccessException {
        List<Method> hooks = new ArrayList<>();
        for (Field field : RuntimeHooks.class.getFields()) {
            if (field.getType() == Method.class && Modifier.isStatic(field.getModifiers())) {
                hooks.add((Method) field.get(null));
            }
        }
        return hooks;
    }

    /** The owner's own method of the hook's name and descriptor: the hook class declares its hooks, it inherits none. */
    private static java.lang.reflect.Method implementationOf(Class<?> owner, Method hook) {
        for (java.lang.reflect.Method candidate : owner.getDeclaredMethods()) {
            if (candidate.getName().equals(hook.getName()) && Type.getMethodDescriptor(candidate).equals(hook.getDescriptor())) {
                return candidate;
            }
        }
        return null;
    }
}
