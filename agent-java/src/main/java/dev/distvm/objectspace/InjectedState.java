package dev.distvm.objectspace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.util.function.Function;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

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
            Class<?> root = metaRoot(type);
            return root == null ? null : find(root, OBJECT_META);
        }
    };
    /** What reads an instance's meta; {@link #NO_META} for a class without the field. */
    private static final ClassValue<Function<Object, Object>> META_READER = new ClassValue<>() {
        @Override
        protected Function<Object, Object> computeValue(Class<?> type) {
            Class<?> root = metaRoot(type);
            return root == null ? NO_META : root == type ? metaReader(root) : get(root);
        }
    };
    private static final Function<Object, Object> NO_META = object -> null;
    private static final ClassValue<VarHandle> CLASS = new ClassValue<>() {
        @Override
        protected VarHandle computeValue(Class<?> type) {
            return find(type, CLASS_STATE);
        }
    };

    private InjectedState() {}

    /**
     * Whether {@code holder} (not a {@code Class}) carries its meta: an application object does;
     * an array, a plain {@code java.lang.Object} (a lock), a JDK thread-local or a synchronizer
     * whose calls run at the home ({@link ForwardedCalls}), whose JDK classes have no fields of
     * dist's, is known only to the object space's registry, which costs a lookup to ask.
     */
    static boolean hasMeta(Object holder) {
        Class<?> type = holder.getClass();
        return !type.isArray() && type != Object.class && !ThreadLocals.isJdkShared(type) && !ForwardedCalls.isShared(type);
    }

    /** The object space's bookkeeping for a shared object (its copy at a worker, its id at the home); null if local. */
    static Object meta(Object object) {
        Function<Object, Object> reader = META_READER.get(object.getClass());
        if (reader == NO_META) {
            throw notRewritten(object.getClass());
        }
        return reader.apply(object);
    }

    /**
     * Like {@link #meta}, but null for an object without the field: one that cannot be shared.
     * Asked at every monitor operation and volatile access on a worker, so it must be cheap.
     */
    static Object metaIfInjected(Object object) {
        return META_READER.get(object.getClass()).apply(object);
    }

    /** Marks the object shared: from now on its writes report themselves. */
    static void setMeta(Object object, Object meta) {
        VarHandle handle = META.get(object.getClass());
        if (handle == null) {
            throw notRewritten(object.getClass());
        }
        handle.setVolatile(object, meta);
    }

    private static UnsharableException notRewritten(Class<?> type) {
        return new UnsharableException(type, "it was not rewritten by dist (no " + OBJECT_META + " field)");
    }

    /** The class that declares the meta field of {@code type}'s instances (the root the rewriter gave it), or null. */
    private static Class<?> metaRoot(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.getName().equals(OBJECT_META)) {
                    return c;
                }
            }
        }
        return null;
    }

    /**
     * A class in the root's own package whose {@code apply} is {@code getfield $dist$meta}: once
     * the JIT inlines it, a read costs what a field read costs, where a {@code VarHandle} that is
     * not a constant costs a call that is not inlined (measured on a worker, an uncontended
     * synchronized method of a local object, which checks its meta twice: 17-22 ns a call with a
     * {@code VarHandle}, 6.5-8.5 ns with this, 5.2 ns at the home). A plain read suffices: the rewritten code's own checks read the
     * field plainly too, and an object that becomes shared while a thread looks races with it
     * whatever the read. Not a hidden class: defining one needs full privilege in the root's
     * module, which dist has not when the root's loader is another (a worker's classes from home).
     */
    @SuppressWarnings("unchecked")
    private static Function<Object, Object> metaReader(Class<?> root) {
        String owner = Type.getInternalName(root);
        String name = owner + "$$DistMetaReader";
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V11, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, name, null,
                "java/lang/Object", new String[] {"java/util/function/Function"});
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor apply = writer.visitMethod(Opcodes.ACC_PUBLIC, "apply", "(Ljava/lang/Object;)Ljava/lang/Object;",
                null, null);
        apply.visitCode();
        apply.visitVarInsn(Opcodes.ALOAD, 1);
        apply.visitTypeInsn(Opcodes.CHECKCAST, owner);
        apply.visitFieldInsn(Opcodes.GETFIELD, owner, OBJECT_META, "Ljava/lang/Object;");
        apply.visitInsn(Opcodes.ARETURN);
        apply.visitMaxs(0, 0);
        apply.visitEnd();
        writer.visitEnd();
        try {
            Class<?> reader;
            synchronized (InjectedState.class) {
                try {
                    reader = MethodHandles.privateLookupIn(root, MethodHandles.lookup()).defineClass(writer.toByteArray());
                } catch (LinkageError e) {
                    // Another thread computing the same class value defined it first (ClassValue allows that).
                    reader = Class.forName(name.replace('/', '.'), true, root.getClassLoader());
                }
            }
            return (Function<Object, Object>) reader.getConstructor().newInstance();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new UnsharableException(root, "dist cannot read its " + OBJECT_META + " (" + e + ")");
        }
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
