package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An exception that ended a placed thread, written on its worker and rebuilt at the home, where
 * the logical thread lives and its uncaught-exception handler (its own, its group's, the default
 * one) runs as on one JVM. Exceptions travel by value (also in shared data, {@link Throwables}),
 * so what travels is what handlers and stack traces read: the class, the message, the stack trace,
 * the cause and the suppressed exceptions, and the fields of the exception's own classes that hold
 * values ({@link Throwables}). The rebuilt exception is of the same class, allocated without a
 * constructor and given the state of a fresh {@code Throwable} (the agent opens {@code java.lang}
 * to dist) and those fields; a field of another type that an uncaught exception's class adds keeps
 * its default value at the home.
 */
final class UncaughtExceptions {
    /**
     * Whether a cause follows, and if not, whether the program may still set one: an exception made
     * without a cause accepts one {@code initCause}, one made with {@code null} as its cause none.
     */
    private static final byte NO_CAUSE = 0, CAUSE_FOLLOWS = 1, CAUSE_NOT_INITIALIZED = 2;
    /** Throwable's own field: itself while no cause was given ({@code getCause()} says null either way). */
    private static final Field CAUSE = causeField();
    /** Deeper cause chains are cut: a chain that long is a cycle or a bug, and the handler still gets its top. */
    private static final int MAX_DEPTH = 64;
    private static final String DIST_PACKAGES = "dev.distvm.";
    private static final Set<String> BUILT_IN_LOADERS = Set.of("app", "platform");

    private UncaughtExceptions() {}

    /** {@code programLoader} loaded the program's classes on this node: its frames show as the home's application loader's. */
    static void write(Throwable thrown, WireBuffer out, ClassLoader programLoader) {
        write(thrown, out, programLoader.getName(), 0);
    }

    private static void write(Throwable thrown, WireBuffer out, String programLoader, int depth) {
        out.appendString(thrown.getClass().getName());
        writeNullable(out, thrown.getMessage());
        List<StackTraceElement> stack = asTheHomeShowsIt(thrown.getStackTrace());
        out.appendInt(stack.size());
        for (StackTraceElement element : stack) {
            String loader = element.getClassLoaderName();
            boolean shownUnnamed = loader != null && (BUILT_IN_LOADERS.contains(loader) || loader.equals(programLoader));
            writeNullable(out, shownUnnamed ? null : loader);
            writeNullable(out, element.getModuleName());
            writeNullable(out, isJdkModule(element.getModuleName()) ? null : element.getModuleVersion());
            out.appendString(element.getClassName());
            out.appendString(element.getMethodName());
            writeNullable(out, element.getFileName());
            out.appendInt(element.getLineNumber());
        }
        Throwable cause = thrown.getCause();
        if (cause != null && depth < MAX_DEPTH) {
            out.appendByte(CAUSE_FOLLOWS);
            write(cause, out, programLoader, depth + 1);
        } else {
            out.appendByte(cause == null && !causeInitialized(thrown) ? CAUSE_NOT_INITIALIZED : NO_CAUSE);
        }
        Throwable[] suppressed = depth < MAX_DEPTH ? thrown.getSuppressed() : new Throwable[0];
        out.appendInt(suppressed.length);
        for (Throwable each : suppressed) {
            write(each, out, programLoader, depth + 1);
        }
        Throwables.writeFields(thrown, out);
    }

    /**
     * The frames the program's own JVM would show: without dist's (between the program's code and
     * {@code Thread.run} on a worker). A frame the JVM made names its loader and module version
     * only when the loader is not built in and the module not the JDK's; one rebuilt at the home
     * cannot tell, so the writer leaves out what the JVM would leave out (the worker's loader of the
     * program's classes standing for the home's application loader).
     */
    private static List<StackTraceElement> asTheHomeShowsIt(StackTraceElement[] stack) {
        List<StackTraceElement> shown = new ArrayList<>(stack.length);
        for (StackTraceElement element : stack) {
            if (!element.getClassName().startsWith(DIST_PACKAGES)) {
                shown.add(element);
            }
        }
        return shown;
    }

    private static boolean isJdkModule(String module) {
        return module != null && (module.startsWith("java.") || module.startsWith("jdk."));
    }

    static Throwable read(ByteBuffer in, ClassLoader loader) {
        return read(in, loader, 0);
    }

    private static Throwable read(ByteBuffer in, ClassLoader loader, int nesting) {
        if (nesting > MAX_DEPTH) {
            // The writer cuts chains there; a deeper one, a few bytes per level, would overflow this stack.
            throw new IllegalArgumentException("object-space message: exceptions nested more than " + MAX_DEPTH + " deep");
        }
        String className = WireReader.string(in);
        String message = readNullable(in);
        int depth = in.getInt();
        WireReader.bounded(in, depth);
        StackTraceElement[] stack = new StackTraceElement[depth];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = new StackTraceElement(readNullable(in), readNullable(in), readNullable(in), WireReader.string(in),
                    WireReader.string(in), readNullable(in), in.getInt());
        }
        byte causeState = in.get();
        Throwable cause = causeState == CAUSE_FOLLOWS ? read(in, loader, nesting + 1) : null;
        Throwable rebuilt = rebuild(className, message, cause, loader);
        if (causeState == CAUSE_NOT_INITIALIZED) {
            setCause(rebuilt, rebuilt);
        }
        rebuilt.setStackTrace(stack);
        int suppressed = in.getInt();
        for (int i = 0; i < suppressed; i++) {
            rebuilt.addSuppressed(read(in, loader, nesting + 1));
        }
        Throwables.readFields(in, rebuilt, loader);
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

    private static Field causeField() {
        try {
            Field cause = Throwable.class.getDeclaredField("cause");
            cause.setAccessible(true); // the agent opens java.lang to dist
            return cause;
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static boolean causeInitialized(Throwable thrown) {
        try {
            return CAUSE.get(thrown) != thrown;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void setCause(Throwable rebuilt, Throwable cause) {
        try {
            CAUSE.set(rebuilt, cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void writeNullable(WireBuffer out, String text) {
        out.appendBoolean(text != null);
        if (text != null) {
            out.appendString(text);
        }
    }

    private static String readNullable(ByteBuffer in) {
        return in.get() != 0 ? WireReader.string(in) : null;
    }
}
