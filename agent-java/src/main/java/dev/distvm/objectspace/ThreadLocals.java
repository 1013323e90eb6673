package dev.distvm.objectspace;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;

/**
 * Thread-locals are shared by identity alone. A thread-local's values live in each thread's own
 * map, and a thread runs on one node, so what a node needs is an instance of its own that the
 * program's references (and {@code ==}, and the identity hash) take for the home's: a copy like
 * any other, made without its constructor, which this class gives the per-node hash code that the
 * threads' maps index by, as a new one would get. Nothing in one is ever written after it is made
 * (the hash code and a supplied one's supplier are final), so copies never go stale.
 *
 * <p>An {@code InheritableThreadLocal} is not shared: a new thread copies its values where the
 * thread is made (the home), which a thread started on another node would not see.
 *
 * <p>{@code ThreadLocal} itself and the class of {@code ThreadLocal.withInitial} are JDK classes,
 * with no room for dist's state: like arrays and plain {@code Object}s, the registry knows which
 * of them are shared ({@link InjectedState#hasMeta}).
 */
final class ThreadLocals {
    /** The class of {@code ThreadLocal.withInitial}'s thread-locals. */
    static final Class<?> SUPPLIED = ThreadLocal.withInitial(() -> null).getClass();
    /** A supplied thread-local's one slot: its supplier. */
    static final Slots SUPPLIED_SLOTS = new SupplierSlot();

    private ThreadLocals() {}

    /** Whether {@code type} is a JDK thread-local class that dist shares (they hold no state of dist's). */
    static boolean isJdkShared(Class<?> type) {
        return type == ThreadLocal.class || type == SUPPLIED;
    }

    /** Gives a copy made without its constructor this node's next hash code, as a new thread-local gets. */
    static void graft(ThreadLocal<?> copy) {
        try {
            Fields.HASH.setInt(copy, Fields.HASH.getInt(new ThreadLocal<>()));
        } catch (IllegalAccessException e) {
            throw new UnsharableException(copy.getClass(), "dist cannot give it a hash code here (" + e + ")");
        }
    }

    /** java.lang's private fields, reached only where a copy is made or read: the agent opens java.lang to dist. */
    private static final class Fields {
        static final Field HASH = accessible(ThreadLocal.class, "threadLocalHashCode");
        static final Field SUPPLIER = accessible(SUPPLIED, "supplier");

        private static Field accessible(Class<?> type, String name) {
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** The supplier: set once, where a copy is made, and never written after (it is final). */
    private static final class SupplierSlot extends Slots {
        @Override
        int count(Object holder) {
            return 1;
        }

        @Override
        Object get(Object holder, int slot) {
            try {
                return Fields.SUPPLIER.get(holder);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        void set(Object holder, int slot, Object value) {
            try {
                Fields.SUPPLIER.set(holder, value);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            VarHandle.releaseFence(); // as the other slots' volatile writes: a reader of a later slot sees it
        }

        @Override
        boolean compareAndSet(Object holder, int slot, Object expected, Object update) {
            // Only a write that rewritten code reported is merged, and none reaches a JDK object.
            throw new IllegalStateException("a thread-local's supplier is never written after it is made");
        }
    }
}
