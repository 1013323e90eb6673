package dist.gos;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;

/**
 * The coherence state the rewriter injects: {@code $dist$meta} of an object (null while it is
 * local; once shared, the object space's bookkeeping: a worker's copy record, the home's id; a
 * copy arrives with its state, so reads do not check it) and {@code $dist$sstate} of a class (0
 * valid here, -1 to be fetched from the home, 1 fetched, 2 a master that copies exist of). The
 * rewritten write and static paths read these, a write reporting itself when they say shared
 * ({@link Hooks#written}); only the object space writes them.
 */
final class InjectedState {
    static final int VALID_LOCAL = 0, VALID_COPY = 1, SHARED_MASTER = 2, NOT_FETCHED = -1;
    private static final String OBJECT_META = "$dist$meta";
    private static final String CLASS_STATE = "$dist$sstate";

    private static final ClassValue<VarHandle> META = new ClassValue<>() {
        @Override
        protected VarHandle computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                VarHandle found = find(c, OBJECT_META);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }
    };
    private static final ClassValue<VarHandle> CLASS = new ClassValue<>() {
        @Override
        protected VarHandle computeValue(Class<?> type) {
            return find(type, CLASS_STATE);
        }
    };

    private InjectedState() {}

    /** The object space's bookkeeping for a shared object (its copy at a worker, its id at the home); null if local. */
    static Object meta(Object object) {
        return metaHandle(object.getClass()).getVolatile(object);
    }

    /** Like {@link #meta}, but null for an object without the field: one that cannot be shared. */
    static Object metaIfInjected(Object object) {
        VarHandle handle = META.get(object.getClass());
        return handle == null ? null : handle.getVolatile(object);
    }

    /** Marks the object shared: from now on its writes report themselves. */
    static void setMeta(Object object, Object meta) {
        metaHandle(object.getClass()).setVolatile(object, meta);
    }

    private static VarHandle metaHandle(Class<?> type) {
        VarHandle handle = META.get(type);
        if (handle == null) {
            throw new UnsharableException(type, "it was not rewritten by dist (no " + OBJECT_META + " field)");
        }
        return handle;
    }

    /** Classes without the field (interfaces) check with the object space on every access instead. */
    static void setClass(Class<?> type, int state) {
        VarHandle handle = CLASS.get(type);
        if (handle != null) {
            handle.setVolatile(state);
        }
    }

    private static VarHandle find(Class<?> owner, String name) {
        try {
            Field field = owner.getDeclaredField(name);
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
            return lookup.unreflectVarHandle(field);
        } catch (NoSuchFieldException e) {
            return null;
        } catch (IllegalAccessException e) {
            throw new UnsharableException(owner, "dist may not set its " + name + " (" + e.getMessage() + ")");
        }
    }
}
