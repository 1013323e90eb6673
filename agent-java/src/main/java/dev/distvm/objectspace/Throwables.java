package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Exceptions travel by value, as {@link UncaughtExceptions} writes them: class, message, stack
 * trace, cause and suppressed exceptions, which is what a program reads of an exception that a
 * thread stored for another (the first failure of a pool of threads, kept in a shared field), and
 * the fields its own classes declare below {@code Throwable} when each holds a value that travels
 * by value on its own (a primitive, a string, a boxed value, an enum constant: an application
 * exception's error code). Each node then has an instance of its own: {@code ==} between an
 * exception and its copy from another node is false. A class with a field of any other type (a
 * reference to an object, {@code SQLException}'s chained {@code next}) would arrive with it at its
 * default, a silent wrong answer: such an exception is refused. Transient fields are caches (a
 * {@code NullPointerException}'s computed message), which the message carries.
 */
final class Throwables {
    /** Per class, the first field an exception of it would lose on its way, or null if none. */
    private static final ClassValue<Field> UNCARRIED = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            for (Field field : ownFields(type)) {
                if (!carried(field.getType())) {
                    return field;
                }
            }
            return null;
        }
    };
    /** Per class, the fields it and its superclasses below {@code Throwable} declare that travel with it, accessible. */
    private static final ClassValue<List<Field>> CARRIED = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> carried = new ArrayList<>();
            for (Field field : ownFields(type)) {
                if (carried(field.getType())) {
                    field.setAccessible(true);
                    carried.add(field);
                }
            }
            return List.copyOf(carried);
        }
    };

    private Throwables() {}

    /** Whether {@code value} is an exception that travels by value whole. */
    static boolean travelsByValue(Object value) {
        return value instanceof Throwable && UNCARRIED.get(value.getClass()) == null;
    }

    /** Why an exception that is not {@link #travelsByValue} cannot be shared. */
    static UnsharableException refusal(Class<?> type) {
        Field field = UNCARRIED.get(type);
        return new UnsharableException(type, "it is an exception, which travels by value (class, message, stack trace,"
                + " cause, suppressed, and fields that hold primitives, strings, boxed values or enum constants), and its field "
                + field.getDeclaringClass().getSimpleName() + "." + field.getName()
                + " would arrive without its value; keep the failure's details in an object of the program's own");
    }

    /** [count]([declaring class][name][value])* of the fields of {@code thrown}'s classes that travel with it. */
    static void writeFields(Throwable thrown, WireBuffer out) {
        List<Field> fields = CARRIED.get(thrown.getClass());
        out.appendInt(fields.size());
        for (Field field : fields) {
            out.appendString(field.getDeclaringClass().getName());
            out.appendString(field.getName());
            try {
                writeValue(field.get(thrown), out);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("dist cannot read " + field + ": " + e.getMessage(), e);
            }
        }
    }

    /** Sets what {@link #writeFields} wrote into {@code rebuilt}'s fields; a field its class lacks (or a stand-in's) is skipped. */
    static void readFields(ByteBuffer in, Throwable rebuilt, ClassLoader loader) {
        int count = in.getInt();
        WireReader.bounded(in, count);
        List<Field> fields = CARRIED.get(rebuilt.getClass());
        for (int i = 0; i < count; i++) {
            String declaring = WireReader.string(in);
            String name = WireReader.string(in);
            Object value = readValue(in, loader);
            for (Field field : fields) {
                if (field.getName().equals(name) && field.getDeclaringClass().getName().equals(declaring)) {
                    try {
                        field.set(rebuilt, value);
                    } catch (IllegalAccessException | IllegalArgumentException e) {
                        throw new IllegalArgumentException("object-space message: field " + declaring + "." + name
                                + " cannot take " + value, e);
                    }
                }
            }
        }
    }

    private static List<Field> ownFields(Class<?> type) {
        List<Field> own = new ArrayList<>();
        for (Class<?> c = type; c != Throwable.class && c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.getName().startsWith("$dist$")) {
                    own.add(field);
                }
            }
        }
        return own;
    }

    private static boolean carried(Class<?> type) {
        return type.isPrimitive() || type == String.class || type.isEnum() || WireWriter.BOXES.contains(type);
    }

    /** As {@code WireWriter} writes a value, with its tags, for the values a field here may hold. */
    private static void writeValue(Object value, WireBuffer out) {
        if (value == null) {
            out.appendByte((byte) WireWriter.NULL);
        } else if (WireWriter.writeBoxed(out, value)) {
            return; // a primitive's box
        } else if (value instanceof String v) {
            out.appendByte((byte) WireWriter.STRING);
            out.appendString(v);
        } else {
            Enum<?> constant = (Enum<?>) value;
            PerNodeState.refuse(constant);
            out.appendByte((byte) WireWriter.ENUM);
            out.appendString(constant.getDeclaringClass().getName());
            out.appendString(constant.name());
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object readValue(ByteBuffer in, ClassLoader loader) {
        int tag = Byte.toUnsignedInt(in.get());
        return switch (tag) {
            case WireWriter.NULL -> null;
            case WireWriter.STRING -> WireReader.string(in);
            case WireWriter.ENUM -> {
                String type = WireReader.string(in);
                String name = WireReader.string(in);
                try {
                    yield Enum.valueOf((Class) Class.forName(type, false, loader), name);
                } catch (ClassNotFoundException e) {
                    throw new IllegalArgumentException("object-space message: enum " + type + " is not found here", e);
                }
            }
            default -> WireReader.boxed(tag, in);
        };
    }
}
