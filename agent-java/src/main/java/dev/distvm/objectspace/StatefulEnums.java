package dev.distvm.objectspace;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Application enums that hold state. Enum constants are made on every node (each node runs the
 * enum's initializer; a reference to one travels by name), so an enum's fields are per node: one a
 * thread on one node writes, or that main set before starting threads, would read as another value
 * on the others. State is a field that is not final (an instance field of the constants or a static
 * field of the enum), or a final instance field that holds a mutable object (an array, an object of
 * a class). Final fields of immutable values (primitives, strings, boxed values, classes, stateless
 * enums), of interface types (the strategy a constant carries, usually a lambda), and static finals
 * (lookup tables the initializer builds) are the same on every node and read the same. Stateful
 * enums are not shared: a thread whose task or code reaches one runs at the home, and a worker that
 * initializes one (reached where the placement's analysis could not see) stops the run rather than
 * compute with its own.
 */
final class StatefulEnums {
    private static final Set<Class<?>> IMMUTABLE_VALUES = Set.of(String.class, Integer.class, Long.class, Double.class,
            Float.class, Short.class, Byte.class, Character.class, Boolean.class, Class.class);
    private static final ClassValue<Optional<Field>> STATE = new ClassValue<>() {
        @Override
        protected Optional<Field> computeValue(Class<?> type) {
            return Optional.ofNullable(stateOf(type, new HashSet<>()));
        }
    };

    private StatefulEnums() {}

    /** Whether {@code type} is an application enum (or a constant's body of one). */
    static boolean isApplicationEnum(Class<?> type) {
        return Enum.class.isAssignableFrom(type) && type != Enum.class && !Slots.isJdk(type);
    }

    /** A field that makes the constants of {@code type} (an enum, or a constant's body) hold state, if any. */
    static Optional<Field> state(Class<?> type) {
        return STATE.get(type);
    }

    /** Throws {@link UnsharableException} if {@code value} is a constant of an application enum that holds state. */
    static void refuse(Object value) {
        if (value instanceof Enum<?> constant && isApplicationEnum(constant.getClass())) {
            state(constant.getClass()).ifPresent(field -> {
                throw refusal(field);
            });
        }
    }

    static UnsharableException refusal(Field field) {
        Class<?> owner = field.getDeclaringClass();
        Class<?> named = owner.isEnum() || owner.getSuperclass() == null ? owner : owner.getSuperclass();
        return new UnsharableException(named, "its enum constants are made on every node, and their field "
                + field.getName() + (owner == named ? "" : " (declared by the constant's body " + owner.getName() + ")")
                + " is state the other nodes would not see");
    }

    /**
     * The fields of an enum and of its constants' bodies (its nestmates that extend it, found
     * without initializing it), or of one body and its enum; dist's injected fields are not the
     * program's state.
     */
    private static Field stateOf(Class<?> type, Set<Class<?>> visiting) {
        if (!visiting.add(type)) {
            return null;
        }
        for (Class<?> c = type; c != null && c != Enum.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!field.isSynthetic() && !field.isEnumConstant() && !field.getName().startsWith("$dist$")
                        && isState(field, visiting)) {
                    return field;
                }
            }
        }
        if (type.isEnum()) {
            for (Class<?> member : nestMembers(type)) {
                Field state = member.getSuperclass() == type ? stateOf(member, visiting) : null;
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

    private static boolean isState(Field field, Set<Class<?>> visiting) {
        if (!Modifier.isFinal(field.getModifiers())) {
            return true;
        }
        if (Modifier.isStatic(field.getModifiers())) {
            return false;
        }
        Class<?> type = field.getType();
        if (type.isPrimitive() || type.isInterface() || IMMUTABLE_VALUES.contains(type) || type.isEnum() && Slots.isJdk(type)) {
            return false;
        }
        return !(isApplicationEnum(type) && stateOf(type, visiting) == null);
    }
}
