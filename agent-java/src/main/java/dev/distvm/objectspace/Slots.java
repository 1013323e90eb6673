package dev.distvm.objectspace;

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
 * dist's injected ones; of a {@code Thread} subclass only the application's fields), the elements
 * of an array, or the static fields of an application class (the holder is then the
 * {@code Class}). Every slot can be read, set and compare-and-set as a boxed value, which is what
 * twin/diff needs; whether two values are the same is decided as {@code ==} on the slot's type
 * would (bits for primitives, identity for references).
 */
abstract class Slots {
    private static final ClassValue<Slots> OF_CLASS = new ClassValue<>() {
        @Override
        protected Slots computeValue(Class<?> type) {
            if (type.isArray()) {
                return type.getComponentType().isPrimitive() ? new ArraySlots(type) : new ReferenceArraySlots(type);
            }
            if (type == ThreadLocals.SUPPLIED) {
                return ThreadLocals.SUPPLIED_SLOTS;
            }
            if (ForwardedCalls.isShared(type)) {
                return ForwardedCalls.NO_SLOTS;
            }
            return new FieldSlots(type, instanceFields(type), false);
        }
    };
    private static final ClassValue<Slots> STATICS = new ClassValue<>() {
        @Override
        protected Slots computeValue(Class<?> type) {
            return new FieldSlots(type, staticFields(type), true);
        }
    };

    /** The slots of a holder: a {@code Class} stands for its statics. */
    static Slots of(Object holder) {
        return holder instanceof Class<?> c ? STATICS.get(c) : OF_CLASS.get(holder.getClass());
    }

    abstract int count(Object holder);

    abstract Object get(Object holder, int slot);

    /** A volatile write, so that a reader who sees a later slot's value sees this one. */
    abstract void set(Object holder, int slot, Object value);

    /** Sets the slot to {@code update} only if it still holds {@code expected}; atomic. */
    abstract boolean compareAndSet(Object holder, int slot, Object expected, Object update);

    /** Whether the slot holds a primitive (compared by value); references are compared by identity. */
    boolean isPrimitive(int slot) {
        return false;
    }

    /** Whether the slot is a volatile field (a release applies those last); no array element is. */
    boolean isVolatile(int slot) {
        return false;
    }

    /** Whether two values of this slot are the same value, as {@code ==} on the slot's type says. */
    final boolean same(int slot, Object a, Object b) {
        return isPrimitive(slot) ? a.equals(b) : a == b;
    }

    private static final class ArraySlots extends Slots {
        private final MethodHandle get;
        private final MethodHandle set;
        private final MethodHandle compareAndSet;
        private final boolean primitive;

        ArraySlots(Class<?> arrayType) {
            VarHandle elements = MethodHandles.arrayElementVarHandle(arrayType);
            this.get = generic(elements, VarHandle.AccessMode.GET, Object.class, Object.class, int.class);
            this.set = generic(elements, VarHandle.AccessMode.SET_VOLATILE, void.class, Object.class, int.class, Object.class);
            this.compareAndSet = generic(elements, VarHandle.AccessMode.COMPARE_AND_SET,
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
        void set(Object holder, int slot, Object value) {
            try {
                set.invokeExact(holder, slot, value);
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

    /**
     * Elements of an array of references, read directly: a release or refresh compares every element
     * of every such array, so this is a loop of plain loads rather than a method handle per element.
     */
    private static final class ReferenceArraySlots extends Slots {
        private final VarHandle elements;

        ReferenceArraySlots(Class<?> arrayType) {
            this.elements = MethodHandles.arrayElementVarHandle(arrayType);
        }

        @Override
        int count(Object holder) {
            return ((Object[]) holder).length;
        }

        @Override
        Object get(Object holder, int slot) {
            return ((Object[]) holder)[slot];
        }

        @Override
        void set(Object holder, int slot, Object value) {
            elements.setVolatile(holder, slot, value);
        }

        @Override
        boolean compareAndSet(Object holder, int slot, Object expected, Object update) {
            return elements.compareAndSet(holder, slot, expected, update);
        }


    }

    /** Fields through method handles; for statics the holder argument is ignored. */
    private static final class FieldSlots extends Slots {
        private final MethodHandle[] get;
        private final MethodHandle[] set;
        private final MethodHandle[] compareAndSet;
        private final boolean[] primitive;
        private final boolean[] isVolatile;

        FieldSlots(Class<?> type, List<Field> fields, boolean statics) {
            int n = fields.size();
            get = new MethodHandle[n];
            set = new MethodHandle[n];
            compareAndSet = new MethodHandle[n];
            primitive = new boolean[n];
            isVolatile = new boolean[n];
            for (int i = 0; i < n; i++) {
                Field field = fields.get(i);
                VarHandle handle = varHandle(type, field);
                MethodHandle g = generic(handle, VarHandle.AccessMode.GET, Object.class, statics ? new Class<?>[0]
                        : new Class<?>[] {Object.class});
                MethodHandle s = generic(handle, VarHandle.AccessMode.SET_VOLATILE, void.class, statics
                        ? new Class<?>[] {Object.class} : new Class<?>[] {Object.class, Object.class});
                MethodHandle c = generic(handle, VarHandle.AccessMode.COMPARE_AND_SET, boolean.class, statics
                        ? new Class<?>[] {Object.class, Object.class}
                        : new Class<?>[] {Object.class, Object.class, Object.class});
                if (statics) {
                    g = MethodHandles.dropArguments(g, 0, Object.class);
                    s = MethodHandles.dropArguments(s, 0, Object.class);
                    c = MethodHandles.dropArguments(c, 0, Object.class);
                }
                get[i] = g;
                set[i] = s;
                compareAndSet[i] = c;
                primitive[i] = field.getType().isPrimitive();
                isVolatile[i] = Modifier.isVolatile(field.getModifiers());
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
        void set(Object holder, int slot, Object value) {
            try {
                set[slot].invokeExact(holder, value);
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

        @Override
        boolean isVolatile(int slot) {
            return isVolatile[slot];
        }
    }

    /**
     * Superclass fields first, each class's in declaration order: the same order on every node. A
     * Thread subclass's thread state is the JVM's business (each node has its own Thread), so
     * copying stops at {@code Thread}; a thread-local's at {@code ThreadLocal} ({@link ThreadLocals});
     * any other JDK superclass with state cannot be copied.
     */
    private static List<Field> instanceFields(Class<?> type) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != Object.class && c != Thread.class && c != ThreadLocal.class; c = c.getSuperclass()) {
            if (c == InheritableThreadLocal.class) {
                throw new UnsharableException(type, "it is an InheritableThreadLocal: a new thread copies its values where"
                        + " the thread is made, which a thread started on another node would not see");
            }
            if (isJdk(c)) {
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

    /** Static fields except dist's and compile-time constants (the same on every node, and final): what a statics fetch carries. */
    static List<Field> staticFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field field : type.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isStatic(modifiers) && !field.getName().startsWith("$dist$") && !Modifier.isFinal(modifiers)) {
                fields.add(field);
            }
        }
        return fields;
    }

    static boolean isJdk(Class<?> c) {
        return c.getClassLoader() == null || c.getClassLoader() == ClassLoader.getPlatformClassLoader();
    }

    private static VarHandle varHandle(Class<?> type, Field field) {
        if (Modifier.isFinal(field.getModifiers())) {
            throw new UnsharableException(type, "field " + field.getName() + " is final: the class was not rewritten by dist");
        }
        try {
            return MethodHandles.privateLookupIn(field.getDeclaringClass(), MethodHandles.lookup()).unreflectVarHandle(field);
        } catch (IllegalAccessException e) {
            throw new UnsharableException(type, "dist may not access field " + field.getName() + " (" + e.getMessage() + ")");
        }
    }

    private static MethodHandle generic(VarHandle handle, VarHandle.AccessMode mode, Class<?> returnType,
                                        Class<?>... parameters) {
        return handle.toMethodHandle(mode).asType(MethodType.methodType(returnType, parameters));
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
