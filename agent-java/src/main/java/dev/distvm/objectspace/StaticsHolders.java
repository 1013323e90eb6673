package dev.distvm.objectspace;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a static field named through a class lives: the rewritten code hands the hooks the class
 * its instruction names ({@code Sub.total}), but the JVM resolves the field to the class that
 * declares it ({@code Base}), whose statics are the holder that is shared and released. Naming the
 * declaring class in the rewritten code is not always allowed (a package-private superclass of a
 * public class), so the runtime resolves it.
 */
final class StaticsHolders {
    private static final ClassValue<Class<?>[]> CHAINS = new ClassValue<>() {
        @Override
        protected Class<?>[] computeValue(Class<?> type) {
            List<Class<?>> chain = new ArrayList<>();
            for (Class<?> c = type; c != null && !Slots.isJdk(c); c = c.getSuperclass()) {
                chain.add(c);
            }
            return chain.toArray(new Class<?>[0]);
        }
    };
    private static final ClassValue<Map<String, Class<?>>> DECLARING = new ClassValue<>() {
        @Override
        protected Map<String, Class<?>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private StaticsHolders() {}

    /**
     * The classes whose statics a static write named through {@code named} may have changed, when
     * the hook is not told which field: the class and its application superclasses. (Interfaces
     * are left out: their static fields are constants.) Do not modify the array.
     */
    static Class<?>[] mayHold(Class<?> named) {
        return CHAINS.get(named);
    }

    /** The class whose statics hold static field {@code field} named through {@code named}; {@code named} when none of its application classes declares it. */
    static Class<?> declaring(Class<?> named, String field) {
        return DECLARING.get(named).computeIfAbsent(field, name -> {
            for (Class<?> c : mayHold(named)) {
                for (Field declared : c.getDeclaredFields()) {
                    if (declared.getName().equals(name) && Modifier.isStatic(declared.getModifiers())) {
                        return c;
                    }
                }
            }
            return named;
        });
    }
}
