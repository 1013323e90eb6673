package dist.objectspace;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;

/**
 * An exception that ended a placed thread, written on its worker and rebuilt at the home, where
 * the logical thread lives and its uncaught-exception handler (its own, its group's, the default
 * one) runs as on one JVM. Exceptions are JDK objects, which the object space does not share, so
 * what travels is what handlers and stack traces read: the class, the message, the stack trace,
 * the cause and the suppressed exceptions. The rebuilt exception is of the same class, allocated
 * without a constructor and given the state of a fresh {@code Throwable} (the agent opens
 * {@code java.lang} to dist); fields that an application exception class adds keep their default
 * values at the home.
 */
final class UncaughtExceptions {
    /** Deeper cause chains are cut: a chain that long is a cycle or a bug, and the handler still gets its top. */
    private static final int MAX_DEPTH = 64;
    private static final int MAX_TEXT = 16 << 20;

    private UncaughtExceptions() {}

    static void write(Throwable thrown, DataOutputStream out) throws IOException {
        write(thrown, out, 0);
    }

    private static void write(Throwable thrown, DataOutputStream out, int depth) throws IOException {
        out.writeUTF(thrown.getClass().getName());
        String message = thrown.getMessage();
        out.writeBoolean(message != null);
        if (message != null) {
            WireWriter.writeString(out, message);
        }
        StackTraceElement[] stack = thrown.getStackTrace();
        out.writeInt(stack.length);
        for (StackTraceElement element : stack) {
            writeNullable(out, element.getClassLoaderName());
            writeNullable(out, element.getModuleName());
            writeNullable(out, element.getModuleVersion());
            out.writeUTF(element.getClassName());
            out.writeUTF(element.getMethodName());
            writeNullable(out, element.getFileName());
            out.writeInt(element.getLineNumber());
        }
        Throwable cause = thrown.getCause();
        boolean followCause = cause != null && cause != thrown && depth < MAX_DEPTH;
        out.writeBoolean(followCause);
        if (followCause) {
            write(cause, out, depth + 1);
        }
        Throwable[] suppressed = depth < MAX_DEPTH ? thrown.getSuppressed() : new Throwable[0];
        out.writeInt(suppressed.length);
        for (Throwable each : suppressed) {
            write(each, out, depth + 1);
        }
    }

    static Throwable read(DataInputStream in, ClassLoader loader) throws IOException {
        String className = in.readUTF();
        String message = in.readBoolean() ? readText(in) : null;
        StackTraceElement[] stack = new StackTraceElement[in.readInt()];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = new StackTraceElement(readNullable(in), readNullable(in), readNullable(in), in.readUTF(),
                    in.readUTF(), readNullable(in), in.readInt());
        }
        Throwable cause = in.readBoolean() ? read(in, loader) : null;
        Throwable rebuilt = rebuild(className, message, cause, loader);
        rebuilt.setStackTrace(stack);
        int suppressed = in.readInt();
        for (int i = 0; i < suppressed; i++) {
            rebuilt.addSuppressed(read(in, loader));
        }
        return rebuilt;
    }

    private static Throwable rebuild(String className, String message, Throwable cause, ClassLoader loader) {
        Throwable template = new Throwable(message, cause);
        try {
            Class<?> type = Class.forName(className, false, loader);
            if (!Throwable.class.isAssignableFrom(type)) {
                throw new ClassCastException(className + " is not a Throwable");
            }
            Throwable rebuilt = (Throwable) Instances.object(type);
            for (Field field : Throwable.class.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    field.setAccessible(true);
                    field.set(rebuilt, field.get(template));
                }
            }
            return rebuilt;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // The home cannot make one of that class: the handler still gets the thread's exception, named.
            return new Throwable(className + (message == null ? "" : ": " + message), cause);
        }
    }

    private static void writeNullable(DataOutputStream out, String text) throws IOException {
        out.writeBoolean(text != null);
        if (text != null) {
            out.writeUTF(text);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    private static String readText(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > MAX_TEXT) {
            throw new IOException("an exception's message of " + length + " bytes");
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
