package dev.distvm.objectspace;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * State that every node makes for itself. An application enum and an application interface are
 * initialized on every node (an enum's constants travel by name; an interface's fields are final,
 * which dist cannot set from the home's), so their fields are each node's own: one a thread on one
 * node writes, or whose value main set or filled before starting threads, would read as another
 * value on the others.
 *
 * <p>State is a field that is not final (an instance field of an enum's constants or a static
 * field of the enum), a final instance field of an enum holding a mutable object (an array, an
 * object of a class), or a field of an interface holding one. Final fields of immutable values
 * (primitives, strings, boxed values, classes, enums without state) and of interface types (the
 * strategy a constant carries, usually a lambda) are the same on every node, and so are an enum's
 * static finals (lookup tables its initializer builds). Such state is not shared: a thread whose
 * task reaches an enum constant with state, or whose code uses the statics of an enum or interface
 * with state, runs at the home; a worker that initializes such an enum anyway (reached where the
 * placement's analysis could not see) stops the run rather than compute with its own. An
 * interface is not refused that way: a worker initializes one that declares default methods with
 * any class implementing it, whose code may never touch its fields; a write to an interface's
 * array through code the analysis does not see would stay on its node.
 */
final class PerNodeState {
    private static final Set<Class<?>> IMMUTABLE_VALUES = Set.of(String.class, Integer.class, Long.class, Double.class,
            Float.class, Short.class, Byte.class, Character.class, Boolean.class, Class.class);
    private static final ClassValue<Optional<Field>> STATE = new ClassValue<>() {
        @Override
        protected Optional<Field> computeValue(Class<?> type) {
            if (Slots.isJdk(type)) {
                return Optional.empty();
            }
            if (type.isInterface()) {
                return Optional.ofNullable(interfaceState(type));
            }
            return Enum.class.isAssignableFrom(type) ? Optional.ofNullable(enumState(type, new HashSet<>())) : Optional.empty();
        }
    };

    private PerNodeState() {}

    /** A field of {@code type} (an application enum, a constant's body, or an interface) that is state each node has its own of, if any. */
    static Optional<Field> state(Class<?> type) {
        return STATE.get(type);
    }

    /** Throws {@link UnsharableException} if {@code value} is a constant of an application enum that holds state. */
    static void refuse(Object value) {
        if (value instanceof Enum<?> constant) {
            state(constant.getClass()).ifPresent(field -> {
                throw refusal(field);
            });
        }
    }

    /** Throws {@link UnsharableException} if {@code owner}, whose statics a thread's code uses, is an enum or interface with state. */
    static void refuseStaticsOf(Class<?> owner) {
        if (owner.isEnum() || owner.isInterface()) {
            state(owner).ifPresent(field -> {
                throw refusal(field);
            });
        }
    }

    static UnsharableException refusal(Field field) {
        Class<?> owner = field.getDeclaringClass();
        if (owner.isInterface()) {
            return new UnsharableException(owner, "an interface is initialized on every node, and its field "
                    + field.getName() + " holds an object each node makes itself, which the other nodes would not see");
        }
        Class<?> named = owner.isEnum() ? owner : owner.getSuperclass();
        return new UnsharableException(named, "its enum constants are made on every node, and their field "
                + field.getName() + (owner == named ? "" : " (declared by the constant's body " + owner.getName() + ")")
                + " is state the other nodes would not see");
    }

    /** An interface's fields (all static and final) that hold what is not an immutable value or a strategy. */
    private static Field interfaceState(Class<?> type) {
        for (Field field : type.getDeclaredFields()) {
            if (!field.isSynthetic() && !field.getName().startsWith("$dist$") && holdsMutable(field, new HashSet<>())) {
                return field;
            }
        }
        return null;
    }

    /**
     * The fields of an enum and of its constants' bodies (its nestmates that extend it, found
     * without initializing it), or of one body and its enum; dist's injected fields are not the
     * program's state.
     */
    private static Field enumState(Class<?> type, Set<Class<?>> visiting) {
        if (!visiting.add(type)) {
            return null;
        }
        for (Class<?> c = type; c != null && c != Enum.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!field.isSynthetic() && !field.isEnumConstant() && !field.getName().startsWith("$dist$")
                        && isEnumState(field, visiting)) {
                    return field;
                }
            }
        }
        if (type.isEnum()) {
            for (Class<?> member : nestMembers(type)) {
                Field state = member.getSuperclass() == type ? enumState(member, visiting) : null;
                if (state != null) {
                    return state;
                }
            }
        }
        return null;
    }

    private static Class<?>[] nestMembers(Class<?> type) {
        try {
            return type.getNestHost().getNestMembers();
        } catch (LinkageError | SecurityException e) {
            return new Class<?>[0]; // a body that cannot be loaded cannot make a constant either
        }
    }

    private static boolean isEnumState(Field field, Set<Class<?>> visiting) {
        if (!Modifier.isFinal(field.getModifiers())) {
            return true;
        }
        return !Modifier.isStatic(field.getModifiers()) && holdsMutable(field, visiting);
    }

    /** Whether a final field's type lets it hold a mutable object (an array, an object of a class, a constant of an enum with state). */
    private static boolean holdsMutable(Field field, Set<Class<?>> visiting) {
        Class<?> type = field.getType();
        if (type.isPrimitive() || type.isInterface() || IMMUTABLE_VALUES.contains(type) || type.isEnum() && Slots.isJdk(type)) {
            return false;
        }
        return !(Enum.class.isAssignableFrom(type) && !Slots.isJdk(type) && enumState(type, visiting) == null);
    }
}
