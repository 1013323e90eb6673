package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * What a placed thread runs, written at the home and rebuilt on the worker: a lambda or method
 * reference (by its implementation method and captured values; the rewriter makes application
 * lambdas serializable so that they can say what they are), an application object's
 * {@code run()}, or an application {@code Thread} subclass's own {@code run()}. Anything else
 * (a JDK Runnable, a lambda the rewriter did not see) is refused, and the thread stays home.
 */
final class ThreadTasks {
    private static final int LAMBDA = 0, RUNNABLE_OBJECT = 1, THREAD_SUBCLASS = 2;

    private ThreadTasks() {}

    /** Writes what {@code thread} runs; throws {@link UnsharableException} when it cannot travel. */
    static void write(Thread thread, WireWriter writer) {
        WireBuffer out = writer.body();
        if (thread.getClass() != Thread.class) {
            if (Slots.isJdk(thread.getClass())) {
                throw new UnsharableException(thread.getClass(), "it is a JDK thread class");
            }
            out.appendByte((byte) THREAD_SUBCLASS);
            writer.ref(thread);
            return;
        }
        Object task = taskOf(thread);
        if (task == null) {
            throw new UnsharableException(Thread.class, "the thread has nothing to run");
        }
        if (task.getClass().isHidden()) {
            SerializedLambda lambda = serializedForm(task);
            out.appendByte((byte) LAMBDA);
            out.appendString(lambda.getImplClass());
            out.appendString(lambda.getImplMethodName());
            out.appendString(lambda.getImplMethodSignature());
            out.appendByte((byte) lambda.getImplMethodKind());
            out.appendInt(lambda.getCapturedArgCount());
            for (int i = 0; i < lambda.getCapturedArgCount(); i++) {
                writer.value(lambda.getCapturedArg(i));
            }
        } else if (!Slots.isJdk(task.getClass())) {
            out.appendByte((byte) RUNNABLE_OBJECT);
            writer.ref(task);
        } else {
            throw new UnsharableException(task.getClass(), "the thread runs a JDK Runnable");
        }
    }

    /** Rebuilds the task on the worker; for a Thread subclass, the copy of the thread itself. */
    static Runnable read(WireReader reader, ClassLoader loader) {
        int kind = Byte.toUnsignedInt(reader.body().get());
        switch (kind) {
            case THREAD_SUBCLASS, RUNNABLE_OBJECT -> {
                Object task = reader.ref();
                if (!(task instanceof Runnable runnable)) {
                    throw new IllegalArgumentException("object-space message: a thread's task is a " + task.getClass().getName());
                }
                return runnable;
            }
            case LAMBDA -> {
                String implClass = reader.string();
                String name = reader.string();
                String signature = reader.string();
                int referenceKind = Byte.toUnsignedInt(reader.body().get());
                int count = reader.body().getInt();
                List<Object> captured = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    captured.add(reader.value());
                }
                MethodHandle implementation = implementation(reader.load(implClass.replace('/', '.')), name, signature,
                        referenceKind, loader);
                MethodHandle bound = MethodHandles.insertArguments(implementation, 0, captured.toArray());
                return () -> {
                    try {
                        bound.invoke();
                    } catch (RuntimeException | Error e) {
                        throw e;
                    } catch (Throwable e) {
                        throw new IllegalStateException(e); // a checked exception through a Runnable: as the JVM would, unchecked
                    }
                };
            }
            default -> throw new IllegalArgumentException("unknown thread task kind " + kind);
        }
    }

    private static MethodHandle implementation(Class<?> owner, String name, String signature, int kind,
                                               ClassLoader loader) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
            MethodType type = MethodType.fromMethodDescriptorString(signature, loader);
            return switch (kind) {
                case MethodHandleInfo.REF_invokeStatic -> lookup.findStatic(owner, name, type);
                case MethodHandleInfo.REF_invokeVirtual, MethodHandleInfo.REF_invokeInterface ->
                        lookup.findVirtual(owner, name, type);
                case MethodHandleInfo.REF_invokeSpecial -> lookup.findSpecial(owner, name, type, owner);
                case MethodHandleInfo.REF_newInvokeSpecial -> lookup.findConstructor(owner, type);
                default -> throw new IllegalArgumentException("lambda implementation kind " + kind);
            };
        } catch (ReflectiveOperationException | TypeNotPresentException e) {
            throw new IllegalStateException("the lambda's implementation " + owner.getName() + "." + name + signature
                    + " is not found on this worker", e);
        }
    }

    private static SerializedLambda serializedForm(Object lambda) {
        try {
            Method writeReplace = lambda.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            return (SerializedLambda) writeReplace.invoke(lambda);
        } catch (NoSuchMethodException e) {
            throw new UnsharableException(lambda.getClass(), "this lambda was not made serializable by dist's rewriter");
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsharableException(lambda.getClass(), "dist cannot read what this lambda captured (" + e + ")");
        }
    }

    /** The Runnable given to Thread's constructor: {@code target} up to JDK 20, {@code holder.task} from 21. */
    private static Object taskOf(Thread thread) {
        try {
            return field(Thread.class, "target").get(thread);
        } catch (NoSuchFieldException e) {
            try {
                Object holder = field(Thread.class, "holder").get(thread);
                return field(holder.getClass(), "task").get(holder);
            } catch (ReflectiveOperationException | RuntimeException inner) {
                throw new UnsharableException(Thread.class, "dist cannot see what the thread runs (" + inner + ")");
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsharableException(Thread.class, "dist cannot see what the thread runs (" + e + ")");
        }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
