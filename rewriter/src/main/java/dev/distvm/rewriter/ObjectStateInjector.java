package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Adds the state the runtime keeps per object and per class, lets the runtime set every field by
 * reflection, and makes identity hashes agree across nodes.
 *
 * <p>An object's state is one reference, {@code $dist$meta}: null while the object is local, the
 * runtime's bookkeeping once it is shared (so a write checks one load for null). One field, not a
 * state word beside it: with compressed references a 4-byte field often fits the padding of the
 * object's last 8 bytes, so small objects keep their size. It goes only into root classes (whose
 * superclass is not an application class): subclasses inherit it, so a field access through any
 * application class finds it.
 */
final class ObjectStateInjector extends ClassVisitor {
    static final String META = "$dist$meta";
    static final String STATIC_STATE = "$dist$sstate";

    private final HookCalls hooks;
    private final Predicate<String> isApplicationClass;
    private final RewriteCounts counts;
    private boolean isInterface;
    private boolean isRoot;
    /** Whether the superclasses leave {@code hashCode} to {@code Object}'s, the identity hash of this node's instance. */
    private boolean isEnum;
    private boolean inheritsObjectsHashCode;
    private boolean declaresHashCode;

    ObjectStateInjector(ClassVisitor next, HookCalls hooks, Predicate<String> isApplicationClass, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.isApplicationClass = isApplicationClass;
        this.counts = counts;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
        isEnum = (access & Opcodes.ACC_ENUM) != 0;
        isRoot = !isInterface && !isApplicationClass.test(superName);
        inheritsObjectsHashCode = "java/lang/Object".equals(superName) || isRoot && jdkClassKeepsObjectsHashCode(superName);
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        // Interface fields must stay final (JVMS 4.5); constants are inlined by compilers and fixed by
        // the JVM at preparation, so setting them would change nothing anyway. An enum's (and a
        // constant body's) stay final too: its constants are made on every node, never copies, and
        // the runtime tells stateless enums by their final fields.
        boolean isConstant = (access & Opcodes.ACC_STATIC) != 0 && value != null;
        if (!isInterface && !isEnum && !isConstant && (access & Opcodes.ACC_FINAL) != 0) {
            access &= ~Opcodes.ACC_FINAL;
            counts.add(Kind.FINAL_REMOVED);
        }
        return super.visitField(access, name, descriptor, signature, value);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        if (name.equals("hashCode") && descriptor.equals("()I")) {
            declaresHashCode = true;
        }
        return super.visitMethod(access, name, descriptor, signature, exceptions);
    }

    @Override
    public void visitEnd() {
        int stateAccess = Opcodes.ACC_PUBLIC | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC;
        if (isRoot) {
            super.visitField(stateAccess, META, "Ljava/lang/Object;", null, null).visitEnd();
            counts.add(Kind.OBJECT_STATE_FIELDS);
            if (inheritsObjectsHashCode && !declaresHashCode) {
                addIdentityHashCode();
            }
        }
        if (!isInterface) {
            super.visitField(stateAccess | Opcodes.ACC_STATIC, STATIC_STATE, "I", null, null).visitEnd();
            counts.add(Kind.STATIC_STATE_FIELD);
        }
        super.visitEnd();
    }

    /**
     * Whether the JDK class {@code internalName} and its superclasses leave {@code hashCode} to
     * {@code Object} (Thread, ThreadLocal, Throwable and Number do): a root under one gets the hook's
     * as a root under {@code Object} does. Asked of the platform class loader, which finds only the
     * JDK's classes and runs no initializer; a superclass it does not know keeps what it has.
     */
    private static boolean jdkClassKeepsObjectsHashCode(String internalName) {
        try {
            Class<?> type = Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
            return type.getMethod("hashCode").getDeclaringClass() == Object.class;
        } catch (ReflectiveOperationException | LinkageError e) {
            return false;
        }
    }

    private void addIdentityHashCode() {
        MethodVisitor method = super.visitMethod(Opcodes.ACC_PUBLIC, "hashCode", "()I", null, null);
        method.visitCode();
        method.visitVarInsn(Opcodes.ALOAD, 0);
        hooks.invoke(method, RuntimeHooks.IDENTITY_HASH_CODE);
        method.visitInsn(Opcodes.IRETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
        counts.add(Kind.HASH_CODE_ADDED);
    }
}
