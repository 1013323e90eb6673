package dev.distvm.rewriter;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Whether a synchronized instance method may run where its object lives instead of where it is
 * called: a method that waits on its monitor (a barrier's {@code await}, a queue's {@code take}),
 * whose code touches only objects (which all have their master at the home), its locals and
 * primitive values. Watches the body's code on its way to the next visitor.
 *
 * <p>Run at the home with the caller's release before and a refresh after, such a call has the
 * effects it would have had where it was called, as long as its code cannot tell the thread or node
 * it runs on and holds no other monitor: so no calls (a call could reach the current thread, a
 * thread-local or another lock) but {@code wait}/{@code notify}/{@code notifyAll}, dist's own
 * helpers and hooks, and the constructors of {@code java.lang}'s exceptions (a wait's
 * {@code InterruptedException} wrapped and rethrown); no {@code monitorenter}, no
 * {@code invokedynamic}; arguments and result of primitive types, which travel as values. One
 * call of the thread is allowed, in the idiom that keeps a caught interrupt pending:
 * {@code Thread.currentThread().interrupt()}, which at the home leaves the home's thread
 * interrupted when the call returns, and the worker then interrupts the caller.
 */
final class HomeCallShape extends MethodVisitor {
    private final String hookOwner;
    private final boolean eligibleDescriptor;
    private boolean waits;
    private boolean mustRunWhereCalled;
    /** The previous instruction was {@code Thread.currentThread()}: only {@code interrupt()} may follow. */
    private boolean afterCurrentThread;

    HomeCallShape(MethodVisitor next, String hookOwner, int access, String descriptor) {
        super(Opcodes.ASM9, next);
        this.hookOwner = hookOwner;
        this.eligibleDescriptor = (access & Opcodes.ACC_STATIC) == 0 && primitivesOnly(descriptor);
    }

    /** Whether the body seen so far may run at its object's home. */
    boolean mayRunAtHome() {
        return eligibleDescriptor && waits && !mustRunWhereCalled;
    }

    private static boolean primitivesOnly(String descriptor) {
        for (Type argument : Type.getArgumentTypes(descriptor)) {
            if (argument.getSort() == Type.OBJECT || argument.getSort() == Type.ARRAY) {
                return false;
            }
        }
        int result = Type.getReturnType(descriptor).getSort();
        return result != Type.OBJECT && result != Type.ARRAY;
    }

    /** Any instruction but the {@code interrupt()} of the idiom: the current thread would be used otherwise. */
    private void instruction() {
        if (afterCurrentThread) {
            mustRunWhereCalled = true;
            afterCurrentThread = false;
        }
    }

    @Override
    public void visitInsn(int opcode) {
        instruction();
        if (opcode == Opcodes.MONITORENTER || opcode == Opcodes.MONITOREXIT) {
            mustRunWhereCalled = true;
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
        instruction();
        if (opcode == Opcodes.NEW && !isLangThrowable(type)) {
            mustRunWhereCalled = true; // its constructor is a call
        }
        super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
        boolean interruptsCurrentThread = afterCurrentThread && opcode == Opcodes.INVOKEVIRTUAL
                && owner.equals("java/lang/Thread") && name.equals("interrupt") && descriptor.equals("()V");
        afterCurrentThread = false;
        if (interruptsCurrentThread) {
            // the idiom's second half
        } else if (opcode == Opcodes.INVOKESTATIC && owner.equals("java/lang/Thread") && name.equals("currentThread")) {
            afterCurrentThread = true;
        } else if (isMonitorMethod(opcode, name, descriptor)) {
            waits |= name.equals("wait");
        } else if (!(name.startsWith("$dist$") || owner.equals(hookOwner)
                || opcode == Opcodes.INVOKESPECIAL && name.equals("<init>") && isLangThrowable(owner))) {
            mustRunWhereCalled = true;
        }
        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
        instruction();
        mustRunWhereCalled = true;
        super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
        instruction();
        super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
        instruction();
        super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
        instruction();
        super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
        instruction();
        super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLdcInsn(Object value) {
        instruction();
        super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
        instruction();
        super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
        instruction();
        super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
        instruction();
        super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
        instruction();
        super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        instruction();
        super.visitMaxs(maxStack, maxLocals);
    }

    /** {@code Object}'s final wait, notify and notifyAll, whatever class the call names. */
    private static boolean isMonitorMethod(int opcode, String name, String descriptor) {
        if (opcode != Opcodes.INVOKEVIRTUAL) {
            return false;
        }
        return name.equals("wait") && (descriptor.equals("()V") || descriptor.equals("(J)V") || descriptor.equals("(JI)V"))
                || (name.equals("notify") || name.equals("notifyAll")) && descriptor.equals("()V");
    }

    /** An exception or error class of {@code java.lang} itself: its constructors only keep a message and a cause. */
    private static boolean isLangThrowable(String type) {
        return type.startsWith("java/lang/") && type.indexOf('/', "java/lang/".length()) < 0
                && (type.endsWith("Exception") || type.endsWith("Error"));
    }
}
