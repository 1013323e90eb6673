package dist.rewriter;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Routes every {@code monitorenter} / {@code monitorexit} through the hooks, so that the runtime
 * decides which object's JVM monitor is really taken: the object itself while its lock is local, a
 * stand-in while the lock lives on another node (the hook returns it, and must return the same one
 * to the matching {@code monitorExit}). The enter sequence grows the stack by one: the writer needs
 * {@code COMPUTE_MAXS}. No branches are added, so existing frames stay valid.
 */
public final class MonitorRewriter extends ClassVisitor {
    private static final String ENTER_DESC = "(Ljava/lang/Object;)Ljava/lang/Object;";
    private static final String ENTERED_DESC = "(Ljava/lang/Object;)V";
    private static final String EXIT_DESC = "(Ljava/lang/Object;)Ljava/lang/Object;";

    private final String hookOwner;
    private final RewriteCounts counts;

    public MonitorRewriter(ClassVisitor next, String hookOwner, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hookOwner = hookOwner;
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitInsn(int opcode) {
                if (opcode == Opcodes.MONITORENTER) {
                    counts.add(RewriteCounts.Kind.MONITOR_ENTER);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, hookOwner, "monitorEnter", ENTER_DESC, false);
                    super.visitInsn(Opcodes.DUP);
                    super.visitInsn(Opcodes.MONITORENTER);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, hookOwner, "monitorEntered", ENTERED_DESC, false);
                } else if (opcode == Opcodes.MONITOREXIT) {
                    counts.add(RewriteCounts.Kind.MONITOR_EXIT);
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, hookOwner, "monitorExit", EXIT_DESC, false);
                    super.visitInsn(Opcodes.MONITOREXIT);
                } else {
                    super.visitInsn(opcode);
                }
            }
        };
    }
}
