package dev.distvm.objectspace;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import sun.misc.Unsafe;

/**
 * Makes the local instance for a shared thing another node sent: an object without running a
 * constructor (its state arrives with it), an array of the sent length, or a class (its statics).
 * A {@code Thread} subclass gets the thread state of a fresh unstarted {@code Thread}, so that its
 * own methods (getName, ...) work, and a thread-local a hash code of this node's; the agent opens
 * {@code java.lang} to dist for that.
 */
final class Instances {
    private static final Unsafe UNSAFE = unsafe();

    private Instances() {}

    static Object create(Holders.Kind kind, Class<?> type, int length) {
        return switch (kind) {
            case ARRAY -> Array.newInstance(type.getComponentType(), length);
            case STATICS -> type;
            case OBJECT -> object(type);
        };
    }

    /** An instance made without running a constructor; for a synchronizer whose calls run at the home, dist's copy class's. */
    static Object object(Class<?> type) {
        try {
            Object instance = UNSAFE.allocateInstance(ForwardedCalls.copyClass(type));
            if (instance instanceof Thread thread) {
                graftThreadState(thread);
            } else if (instance instanceof ThreadLocal<?> local) {
                ThreadLocals.graft(local);
            }
            return instance;
        } catch (InstantiationException e) {
            throw new UnsharableException(type, "it cannot be instantiated here (" + e.getMessage() + ")");
        }
    }

    private static void graftThreadState(Thread copy) {
        Thread template = new Thread(ThreadsPlacedHere.PROGRAM_GROUP, "dist-template");
        try {
            for (Field field : Thread.class.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    field.setAccessible(true);
                    field.set(copy, field.get(template));
                }
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsharableException(copy.getClass(), "dist cannot give it a thread state here (" + e + ")");
        }
    }

    private static Unsafe unsafe() {
        try {
            Field field = Unsafe.class.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            return (Unsafe) field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
