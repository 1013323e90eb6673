package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Lets the runtime decide, before each call of a native method of an application class, whether
 * it may run on this node: its library and native state live where the class was initialized.
 * Every native method {@code m} is renamed {@link #PREFIX}{@code m} (private, synthetic, neither
 * synchronized nor anything else the caller sees) and replaced by a non-native {@code m} with the
 * original name, descriptor, access (minus {@code native}), signature, exceptions, annotations and
 * parameters, whose body is {@code HOOK.nativeMethod(C.class, "m"); return PREFIX m(arguments);}.
 *
 * <p>The JVM still links the renamed method to the native code of {@code m} once the agent has
 * registered the prefix ({@code Instrumentation.setNativeMethodPrefix}): a lookup of the JNI name
 * of {@code PREFIXm} that fails is retried with the prefix removed, which finds {@code m}'s symbol
 * because a non-native {@code m} of the same descriptor exists; and {@code RegisterNatives} for
 * {@code m}, finding {@code m} not native, registers {@code PREFIXm} instead. A native method that
 * links nowhere fails as it would unchanged, with an {@code UnsatisfiedLinkError}, whose message
 * names the renamed method.
 *
 * <p>A {@code synchronized native} method's wrapper keeps the flag, so this visitor must come
 * before {@link SynchronizedMethodRewriter}, which splits the wrapper like any synchronized method:
 * its monitor goes through the monitor hooks, as cluster-wide as any other synchronized method.
 * The wrapper is straight-line code with no frames to write; the writer needs {@code COMPUTE_MAXS}.
 */
public final class NativeMethodRewriter extends ClassVisitor {
    /** What the agent registers with the JVM; dist's own {@code $dist$} names no application method has. */
    public static final String PREFIX = "$dist$native$";

    private static final int KEPT_FOR_THE_NATIVE = Opcodes.ACC_STATIC | Opcodes.ACC_STRICT;

    private final HookCalls hooks;
    private final RewriteCounts counts;
    private String className;
    private int majorVersion;

    NativeMethodRewriter(ClassVisitor next, HookCalls hooks, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.counts = counts;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        className = name;
        majorVersion = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        if ((access & Opcodes.ACC_NATIVE) == 0) {
            return super.visitMethod(access, name, descriptor, signature, exceptions);
        }
        counts.add(Kind.NATIVE_METHOD);
        int nativeAccess = (access & KEPT_FOR_THE_NATIVE) | Opcodes.ACC_NATIVE | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
        MethodVisitor renamed = super.visitMethod(nativeAccess, PREFIX + name, descriptor, signature, exceptions);
        renamed.visitEnd();
        MethodVisitor wrapper = super.visitMethod(access & ~Opcodes.ACC_NATIVE, name, descriptor, signature, exceptions);
        return new WrapperWriter(wrapper, (access & Opcodes.ACC_STATIC) != 0, name, descriptor);
    }

    /**
     * Receives what describes the native method (annotations, parameters, attributes: it has no
     * code) and passes it to the wrapper, then writes the wrapper's code.
     */
    private final class WrapperWriter extends MethodVisitor {
        private final boolean isStatic;
        private final String name;
        private final String descriptor;

        WrapperWriter(MethodVisitor wrapper, boolean isStatic, String name, String descriptor) {
            super(Opcodes.ASM9, wrapper);
            this.isStatic = isStatic;
            this.name = name;
            this.descriptor = descriptor;
        }

        @Override
        public void visitEnd() {
            writeCode();
            super.visitEnd();
        }

        private void writeCode() {
            MethodVisitor code = mv;
            code.visitCode();
            ClassLiterals.push(code, className, majorVersion);
            code.visitLdcInsn(name);
            hooks.invoke(code, RuntimeHooks.NATIVE_METHOD);
            SameArguments.callPrivate(code, className, isStatic, PREFIX + name, descriptor);
            code.visitInsn(Type.getReturnType(descriptor).getOpcode(Opcodes.IRETURN));
            code.visitMaxs(0, 0);
        }
    }
}
