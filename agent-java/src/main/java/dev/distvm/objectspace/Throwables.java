package dev.distvm.objectspace;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Exceptions travel by value, as {@link UncaughtExceptions} writes them: class, message, stack
 * trace, cause and suppressed exceptions, which is what a program reads of an exception that a
 * thread stored for another (the first failure of a pool of threads, kept in a shared field). Each
 * node then has an instance of its own: {@code ==} between an exception and its copy from another
 * node is false. A class that declares fields of its own below {@code Throwable} (an application
 * exception's error code, {@code SQLException}'s state) would arrive with them at their defaults,
 * a silent wrong answer: such an exception is refused. Transient fields are caches (a
 * {@code NullPointerException}'s computed message), which the message carries.
 */
final class Throwables {
    /** Per class, the first field an exception of it would lose on its way, or null if none. */
    private static final ClassValue<Field> UNCARRIED = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            for (Class<?> c = type; c != Throwable.class && c != null; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    int modifiers = field.getModifiers();
                    if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)
                            && !field.getName().startsWith("$dist$")) {
                        return field;
                    }
                }
            }
            return null;
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
                + " cause, suppressed), and its field " + field.getDeclaringClass().getSimpleName() + "." + field.getName()
                + " would arrive without its value; keep the failure's details in an object of the program's own");
    }
}
