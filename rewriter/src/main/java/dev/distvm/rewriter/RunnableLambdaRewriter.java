package dev.distvm.rewriter;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Makes every {@code Runnable} lambda and method reference of application code serializable, by
 * bootstrapping it with {@code LambdaMetafactory.altMetafactory(FLAG_SERIALIZABLE)} instead of
 * {@code metafactory}. A serializable lambda can say what it is ({@code writeReplace} gives a
 * {@code SerializedLambda}: implementation method and captured values), which is how the runtime
 * ships a thread's task to another node. Only Runnables: other lambdas keep their exact behaviour
 * (a side effect visible to the program: {@code instanceof Serializable} is now true for them).
 */
final class RunnableLambdaRewriter extends ClassVisitor {
    private static final String FACTORY = "java/lang/invoke/LambdaMetafactory";
    private static final Handle ALT_METAFACTORY = new Handle(Opcodes.H_INVOKESTATIC, FACTORY, "altMetafactory",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;[Ljava/lang/Object;)"
                    + "Ljava/lang/invoke/CallSite;", false);
    private static final int FLAG_SERIALIZABLE = 1;

    private final RewriteCounts counts;

    RunnableLambdaRewriter(ClassVisitor next, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitInvokeDynamicInsn(String method, String desc, Handle bootstrap, Object... arguments) {
                if (bootstrap.getOwner().equals(FACTORY) && bootstrap.getName().equals("metafactory")
                        && Type.getReturnType(desc).getInternalName().equals("java/lang/Runnable")) {
                    counts.add(RewriteCounts.Kind.RUNNABLE_LAMBDA);
                    Object[] alt = {arguments[0], arguments[1], arguments[2], FLAG_SERIALIZABLE};
                    super.visitInvokeDynamicInsn(method, desc, ALT_METAFACTORY, alt);
                } else {
                    super.visitInvokeDynamicInsn(method, desc, bootstrap, arguments);
                }
            }
        };
    }
}
