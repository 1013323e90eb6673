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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.internal.misc.Unsafe;

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

    /** How a path names the slot: {@code .field}, or {@code [index]} for an array's element. */
    String name(int slot) {
        return "[" + slot + "]";
    }

    /** Whether the slot holds a primitive (compared by value); references are compared by identity. */
    boolean isPrimitive(int slot) {
        return false;
    }

    /** Whether the slot is a volatile field (a release applies those last); no array element is. */
    boolean isVolatile(int slot) {
        return false;
    }

    /**
     * The slot of the field that a field instruction naming {@code owner} (an internal name) and
     * {@code name} resolves to, for holders of this kind; -1 when no slot holds it (an array, or a
     * field of a JDK superclass).
     */
    int fieldSlot(String owner, String name) {
        return -1;
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

    /**
     * Fields read and written at their offsets with {@code jdk.internal.misc.Unsafe}, which the agent
     * exports to dist; for statics the holder argument is ignored. A method handle per field (a
     * {@code VarHandle} adapted to boxed values) spun new method-handle classes for every class
     * shared, on the path of a thread's start: 40% of the home's first {@code start()} and a third
     * of the worker's before the placed thread ran (perf/RESULTS.md). These are intrinsics.
     */
    private static final class FieldSlots extends Slots {
        private static final Unsafe UNSAFE = Unsafe.getUnsafe();
        /** The statics' base object, or null for instance fields (the holder is the base). */
        private final Object staticBase;
        private final long[] offsets;
        private final FieldKind[] kinds;
        private final boolean[] isVolatile;
        private final String[] names;
        private final Class<?> type;
        private final boolean statics;
        private final Field[] fields;
        private final Map<String, Integer> resolved = new ConcurrentHashMap<>();

        FieldSlots(Class<?> type, List<Field> fields, boolean statics) {
            this.type = type;
            this.statics = statics;
            this.fields = fields.toArray(new Field[0]);
            int n = fields.size();
            offsets = new long[n];
            kinds = new FieldKind[n];
            isVolatile = new boolean[n];
            names = new String[n];
            for (int i = 0; i < n; i++) {
                Field field = fields.get(i);
                names[i] = "." + field.getName();
                if (Modifier.isFinal(field.getModifiers())) {
                    throw new UnsharableException(type, "field " + field.getName() + " is final: the class was not rewritten by dist");
                }
                offsets[i] = statics ? UNSAFE.staticFieldOffset(field) : UNSAFE.objectFieldOffset(field);
                kinds[i] = FieldKind.of(field.getType());
                isVolatile[i] = Modifier.isVolatile(field.getModifiers());
            }
            // A class's statics are read once it is initialized, as a static field's VarHandle would see to.
            staticBase = statics && n > 0 ? initializedBase(type, fields.get(0)) : null;
        }

        private static Object initializedBase(Class<?> type, Field field) {
            UNSAFE.ensureClassInitialized(type);
            return UNSAFE.staticFieldBase(field);
        }

        private Object base(Object holder) {
            return staticBase != null ? staticBase : holder;
        }

        @Override
        int count(Object holder) {
            return offsets.length;
        }

        @Override
        Object get(Object holder, int slot) {
            Object base = base(holder);
            long offset = offsets[slot];
            return switch (kinds[slot]) {
                case BOOLEAN -> UNSAFE.getBoolean(base, offset);
                case BYTE -> UNSAFE.getByte(base, offset);
                case CHAR -> UNSAFE.getChar(base, offset);
                case SHORT -> UNSAFE.getShort(base, offset);
                case INT -> UNSAFE.getInt(base, offset);
                case LONG -> UNSAFE.getLong(base, offset);
                case FLOAT -> UNSAFE.getFloat(base, offset);
                case DOUBLE -> UNSAFE.getDouble(base, offset);
                case REFERENCE -> UNSAFE.getReference(base, offset);
            };
        }

        @Override
        void set(Object holder, int slot, Object value) {
            Object base = base(holder);
            long offset = offsets[slot];
            switch (kinds[slot]) {
                case BOOLEAN -> UNSAFE.putBooleanVolatile(base, offset, (Boolean) value);
                case BYTE -> UNSAFE.putByteVolatile(base, offset, (Byte) value);
                case CHAR -> UNSAFE.putCharVolatile(base, offset, (Character) value);
                case SHORT -> UNSAFE.putShortVolatile(base, offset, (Short) value);
                case INT -> UNSAFE.putIntVolatile(base, offset, (Integer) value);
                case LONG -> UNSAFE.putLongVolatile(base, offset, (Long) value);
                case FLOAT -> UNSAFE.putFloatVolatile(base, offset, (Float) value);
                case DOUBLE -> UNSAFE.putDoubleVolatile(base, offset, (Double) value);
                case REFERENCE -> UNSAFE.putReferenceVolatile(base, offset, value);
            }
        }

        /** Primitives compare by their bits, as {@code VarHandle}'s compare-and-set does (a NaN matches itself). */
        @Override
        boolean compareAndSet(Object holder, int slot, Object expected, Object update) {
            Object base = base(holder);
            long offset = offsets[slot];
            return switch (kinds[slot]) {
                case BOOLEAN -> UNSAFE.compareAndSetBoolean(base, offset, (Boolean) expected, (Boolean) update);
                case BYTE -> UNSAFE.compareAndSetByte(base, offset, (Byte) expected, (Byte) update);
                case CHAR -> UNSAFE.compareAndSetChar(base, offset, (Character) expected, (Character) update);
                case SHORT -> UNSAFE.compareAndSetShort(base, offset, (Short) expected, (Short) update);
                case INT -> UNSAFE.compareAndSetInt(base, offset, (Integer) expected, (Integer) update);
                case LONG -> UNSAFE.compareAndSetLong(base, offset, (Long) expected, (Long) update);
                case FLOAT -> UNSAFE.compareAndSetFloat(base, offset, (Float) expected, (Float) update);
                case DOUBLE -> UNSAFE.compareAndSetDouble(base, offset, (Double) expected, (Double) update);
                case REFERENCE -> UNSAFE.compareAndSetReference(base, offset, expected, update);
            };
        }

        @Override
        boolean isPrimitive(int slot) {
            return kinds[slot] != FieldKind.REFERENCE;
        }

        @Override
        boolean isVolatile(int slot) {
            return isVolatile[slot];
        }

        @Override
        String name(int slot) {
            return names[slot];
        }

        /**
         * As the JVM resolves a field: from the class named up through its superclasses, the first
         * that declares it. A class's statics are its own fields, whoever named them
         * ({@link StaticsHolders} found the class that declares a static).
         */
        @Override
        int fieldSlot(String owner, String name) {
            return resolved.computeIfAbsent(owner + '.' + name, key -> {
                String ownerName = statics ? type.getName() : owner.replace('/', '.');
                Class<?> c = type;
                while (c != null && !c.getName().equals(ownerName)) {
                    c = c.getSuperclass();
                }
                for (; c != null; c = c.getSuperclass()) {
                    for (int i = 0; i < fields.length; i++) {
                        if (fields[i].getDeclaringClass() == c && fields[i].getName().equals(name)) {
                            return i;
                        }
                    }
                }
                return -1;
            });
        }
    }

    /** How a field's value is stored: which of Unsafe's accessors reads and writes it. */
    private enum FieldKind {
        BOOLEAN, BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, REFERENCE;

        static FieldKind of(Class<?> type) {
            if (!type.isPrimitive()) {
                return REFERENCE;
            }
            return type == boolean.class ? BOOLEAN : type == byte.class ? BYTE : type == char.class ? CHAR
                    : type == short.class ? SHORT : type == int.class ? INT : type == long.class ? LONG
                    : type == float.class ? FLOAT : DOUBLE;
        }
    }

    /**
     * Superclass fields first, each class's in declaration order: the same order on every node. A
     * Thread subclass's thread state is the JVM's business (each node has its own Thread), so
     * copying stops at {@code Thread}; a thread-local's at {@code ThreadLocal} ({@link ThreadLocals});
     * and at a JDK superclass that holds no state ({@code Record}, {@code Number},
     * {@code AbstractCollection}): any other JDK superclass with state cannot be copied.
     */
    /** Whether neither {@code jdkClass} nor a superclass of it declares an instance field: it adds no state to a subclass. */
    static boolean withoutInstanceFields(Class<?> jdkClass) {
        for (Class<?> c = jdkClass; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<Field> instanceFields(Class<?> type) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != Object.class && c != Thread.class && c != ThreadLocal.class; c = c.getSuperclass()) {
            if (c == InheritableThreadLocal.class) {
                throw new UnsharableException(type, "it is an InheritableThreadLocal: a new thread copies its values where"
                        + " the thread is made, which a thread started on another node would not see");
            }
            if (isJdk(c)) {
                if (!withoutInstanceFields(c)) {
                    throw new UnsharableException(type, "it extends " + c.getName()
                            + ", a JDK class whose fields dist cannot copy yet");
                }
                break;
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
