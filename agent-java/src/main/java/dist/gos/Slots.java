package dist.gos;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * The values of a shared thing that the object space copies, seen as numbered slots: the instance
 * fields of an application object (its own class's and its application superclasses', never
 * dist's injected ones), or the elements of an array. Every slot can be read and compare-and-set
 * as a boxed value, which is what twin/diff needs; whether two values are the same is decided as
 * the JVM would for that slot's type (bits for primitives, identity for references).
 */
abstract class Slots {
    private static final ClassValue<Slots> OF_CLASS = new ClassValue<>() {
        @Override
        protected Slots computeValue(Class<?> type) {
            return type.isArray() ? new ArraySlots(type) : new FieldSlots(type);
        }
    };

    static Slots of(Class<?> type) {
        return OF_CLASS.get(type);
    }

    abstract int count(Object holder);

    abstract Object get(Object holder, int slot);

    /** Sets the slot to {@code update} only if it still holds {@code expected}; atomic. */
    abstract boolean compareAndSet(Object holder, int slot, Object expected, Object update);

    abstract boolean isPrimitive(int slot);

    /** Whether two values of this slot are the same value, as {@code ==} on the slot's type says. */
    final boolean same(int slot, Object a, Object b) {
        return isPrimitive(slot) ? a.equals(b) : a == b;
    }

    private static final class ArraySlots extends Slots {
        private final MethodHandle get;
        private final MethodHandle compareAndSet;
        private final boolean primitive;

        ArraySlots(Class<?> arrayType) {
            VarHandle elements = MethodHandles.arrayElementVarHandle(arrayType);
            this.get = generic(elements.toMethodHandle(VarHandle.AccessMode.GET), Object.class, Object.class, int.class);
            this.compareAndSet = generic(elements.toMethodHandle(VarHandle.AccessMode.COMPARE_AND_SET),
                    boolean.class, Object.class, int.class, Object.class, Object.class);
            this.primitive = arrayType.getComponentType().isPrimitive();
        }

        @Override
        int count(Object holder) {
            return Array.getLength(holder);
        }

        @Override
        Object get(Object holder, int slot) {
            try {
                return get.invokeExact(holder, slot);
            } catch (Throwable e) {
                throw rethrow(e);
            }
        }

        @Override
        boolean compareAndSet(Object holder, int slot, Object expected, Object update) {
            try {
                return (boolean) compareAndSet.invokeExact(holder, slot, expected, update);
            } catch (Throwable e) {
                throw rethrow(e);
            }
        }

        @Override
        boolean isPrimitive(int slot) {
            return primitive;
        }
    }

    private static final class FieldSlots extends Slots {
        private final MethodHandle[] get;
        private final MethodHandle[] compareAndSet;
        private final boolean[] primitive;

        FieldSlots(Class<?> type) {
            List<Field> fields = copiedFields(type);
            get = new MethodHandle[fields.size()];
            compareAndSet = new MethodHandle[fields.size()];
            primitive = new boolean[fields.size()];
            for (int i = 0; i < fields.size(); i++) {
                Field field = fields.get(i);
                VarHandle handle = varHandle(field);
                get[i] = generic(handle.toMethodHandle(VarHandle.AccessMode.GET), Object.class, Object.class);
                compareAndSet[i] = generic(handle.toMethodHandle(VarHandle.AccessMode.COMPARE_AND_SET),
                        boolean.class, Object.class, Object.class, Object.class);
                primitive[i] = field.getType().isPrimitive();
            }
        }

        @Override
        int count(Object holder) {
            return get.length;
        }

        @Override
        Object get(Object holder, int slot) {
            try {
                return get[slot].invokeExact(holder);
            } catch (Throwable e) {
                throw rethrow(e);
            }
        }

        @Override
        boolean compareAndSet(Object holder, int slot, Object expected, Object update) {
            try {
                return (boolean) compareAndSet[slot].invokeExact(holder, expected, update);
            } catch (Throwable e) {
                throw rethrow(e);
            }
        }

        @Override
        boolean isPrimitive(int slot) {
            return primitive[slot];
        }

        /** Superclass fields first, each class's in declaration order: the same order on every node. */
        private static List<Field> copiedFields(Class<?> type) {
            List<Class<?>> chain = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                if (c.getClassLoader() == null || c.getClassLoader() == ClassLoader.getPlatformClassLoader()) {
                    throw new UnsharableException(type, "it extends " + c.getName()
                            + ", a JDK class whose fields dist cannot copy yet");
                }
                chain.add(0, c);
            }
            List<Field> fields = new ArrayList<>();
            for (Class<?> c : chain) {
                for (Field field : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers()) && !field.getName().startsWith("$dist$")) {
                        fields.add(field);
                    }
                }
            }
            return fields;
        }

        private static VarHandle varHandle(Field field) {
            try {
                return MethodHandles.privateLookupIn(field.getDeclaringClass(), MethodHandles.lookup())
                        .unreflectVarHandle(field);
            } catch (IllegalAccessException e) {
                throw new UnsharableException(field.getDeclaringClass(), "dist may not access field "
                        + field.getName() + " (" + e.getMessage() + ")");
            }
        }
    }

    private static MethodHandle generic(MethodHandle handle, Class<?> returnType, Class<?>... parameters) {
        return handle.asType(MethodType.methodType(returnType, parameters));
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            return r;
        }
        if (e instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(e);
    }
}
