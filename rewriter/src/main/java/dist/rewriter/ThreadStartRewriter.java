package dist.rewriter;

import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Routes {@code Thread.start()} call sites of application code through a static hook
 * {@code HOOK.start(Ljava/lang/Thread;)V}, which records the thread and then starts it. This is
 * where the runtime learns of every application thread, and later where it places them.
 *
 * <p>Only {@code invokevirtual} sites are rewritten: {@code super.start()} inside an overriding
 * {@code start} stays as it is, so a thread is reported once. Whether an owner class is a
 * {@code Thread} is an analysis question answered by the caller's {@code isThread} predicate
 * (internal names), which keeps this visitor free of class loading.
 */
public final class ThreadStartRewriter extends ClassVisitor {
    private final Predicate<String> isThread;
    private final String hookOwner;
    private boolean changed;

    public ThreadStartRewriter(ClassVisitor next, Predicate<String> isThread, String hookOwner) {
        super(Opcodes.ASM9, next);
        this.isThread = isThread;
        this.hookOwner = hookOwner;
    }

    /** Whether any call site was rewritten; when not, the caller can keep the original bytes. */
    public boolean changed() {
        return changed;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        return new MethodVisitor(Opcodes.ASM9, next) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean isInterface) {
                if (opcode == Opcodes.INVOKEVIRTUAL && method.equals("start") && desc.equals("()V")
                        && isThread.test(owner)) {
                    changed = true;
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, hookOwner, "start", "(Ljava/lang/Thread;)V", false);
                } else {
                    super.visitMethodInsn(opcode, owner, method, desc, isInterface);
                }
            }
        };
    }
}
