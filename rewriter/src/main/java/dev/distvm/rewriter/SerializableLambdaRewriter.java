package dev.distvm.rewriter;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Makes every lambda and method reference of application code serializable, by bootstrapping it
 * with {@code LambdaMetafactory.altMetafactory} and {@code FLAG_SERIALIZABLE} (added to the flags
 * of those already bootstrapped that way). A serializable lambda can say what it is
 * ({@code writeReplace} gives a {@code SerializedLambda}: implementation method, functional
 * interface and captured values), which is how the runtime ships a thread's task, and any lambda
 * its data reaches, to another node, where it is made again from that description. A side effect
 * visible to the program: {@code instanceof Serializable} is true for every lambda of the program.
 *
 * <p>A class that makes lambdas also gets {@code $dist$lookup()}, returning its own
 * {@code MethodHandles.lookup()}: the metafactory makes a lambda only for a lookup with the
 * capturing class's full privileges, which no other class can obtain.
 */
final class SerializableLambdaRewriter extends HelperHost {
    private static final String FACTORY = "java/lang/invoke/LambdaMetafactory";
    private static final Handle ALT_METAFACTORY = new Handle(Opcodes.H_INVOKESTATIC, FACTORY, "altMetafactory",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;[Ljava/lang/Object;)"
                    + "Ljava/lang/invoke/CallSite;", false);
    private static final int FLAG_SERIALIZABLE = 1;

    /** The synthetic method that hands the runtime the capturing class's full-privilege lookup. */
    static final String LOOKUP_METHOD = "$dist$lookup";
    private static final String LOOKUP_DESCRIPTOR = "()Ljava/lang/invoke/MethodHandles$Lookup;";

    private final RewriteCounts counts;
    private boolean makesLambdas;

    SerializableLambdaRewriter(ClassVisitor next, RewriteCounts counts) {
        super(next);
        this.counts = counts;
    }

    @Override
    public void visitEnd() {
        if (makesLambdas) {
            MethodVisitor method = super.visitMethod(helperAccess(), LOOKUP_METHOD, LOOKUP_DESCRIPTOR, null, null);
            method.visitCode();
            method.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "lookup", LOOKUP_DESCRIPTOR, false);
            method.visitInsn(Opcodes.ARETURN);
            method.visitMaxs(0, 0);
            method.visitEnd();
            counts.add(RewriteCounts.Kind.LAMBDA_LOOKUP);
        }
        super.visitEnd();
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitInvokeDynamicInsn(String method, String desc, Handle bootstrap, Object... arguments) {
                if (!bootstrap.getOwner().equals(FACTORY)) {
                    super.visitInvokeDynamicInsn(method, desc, bootstrap, arguments);
                    return;
                }
                makesLambdas = true;
                if (bootstrap.getName().equals("metafactory")) {
                    counts.add(RewriteCounts.Kind.SERIALIZABLE_LAMBDA);
                    Object[] alt = {arguments[0], arguments[1], arguments[2], FLAG_SERIALIZABLE};
                    super.visitInvokeDynamicInsn(method, desc, ALT_METAFACTORY, alt);
                } else if (bootstrap.getName().equals("altMetafactory") && arguments.length > 3
                        && arguments[3] instanceof Integer flags && (flags & FLAG_SERIALIZABLE) == 0) {
                    counts.add(RewriteCounts.Kind.SERIALIZABLE_LAMBDA);
                    Object[] alt = arguments.clone();
                    alt[3] = flags | FLAG_SERIALIZABLE;
                    super.visitInvokeDynamicInsn(method, desc, bootstrap, alt);
                } else {
                    super.visitInvokeDynamicInsn(method, desc, bootstrap, arguments);
                }
            }
        };
    }
}
