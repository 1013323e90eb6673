package dev.distvm.rewriter;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.Method;

/**
 * Tells the runtime of every {@code monitorenter} / {@code monitorexit}, leaving the monitors
 * themselves as javac wrote them: the JVM monitor taken is always the object's own (on a worker, a
 * copy's local monitor, which the node's threads contend for before one of them asks the home).
 * An enter becomes {@code dup; monitorenter; monitorEntered(o)} (the hook runs holding the
 * monitor), an exit {@code dup; monitorexit; monitorExit(o)} (the hook runs once it is let go).
 *
 * <p>HotSpot compiles a method with monitors only when it can pair them (GenerateOopMap), and C1
 * only when no exception handler covers an instruction of its own that may throw. Pairing needs
 * each exit to unlock the value an enter locked (the values are javac's, so it holds) and every
 * instruction that may throw while a monitor is held to be covered by a catch-any handler, which
 * unlocks. So the hooks go where javac's handler ranges already say the right thing: the enter
 * hook, which runs holding the monitor, inside the catch-any ranges that begin right after the
 * {@code monitorenter} (they get a new start before the hook); the exit hook, which runs without
 * it, outside the ranges that end right after the {@code monitorexit} (they get a new end before
 * the hook), among them the handler's range over its own exit. The original labels stay after the
 * hooks, so jumps to them do not run a hook. Each sequence grows the stack by one: the writer
 * needs {@code COMPUTE_MAXS}. No branches are added, so existing frames stay valid.
 */
final class MonitorRewriter extends ClassVisitor {
    private final HookCalls hooks;
    private final RewriteCounts counts;

    MonitorRewriter(ClassVisitor next, HookCalls hooks, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new Hooked(super.visitMethod(access, name, descriptor, signature, exceptions));
    }

    private final class Hooked extends MethodVisitor {
        /** The start each catch-any range gets instead of its own: before an enter hook, else at the same offset. */
        private final Map<Label, Label> rangeStarts = new HashMap<>();
        /** The end each range gets instead of its own: before an exit hook, else at the same offset. */
        private final Map<Label, Label> rangeEnds = new HashMap<>();
        /** The hook that follows the last instruction, after the labels that follow it; null if none. */
        private Method pendingHook;

        Hooked(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            // Visited before any label of the code (ASM's order), so the new labels can be placed.
            // Only catch-any ranges cover the enter hook: a program's own catch of a type must not
            // see what the runtime throws while entering.
            Label rangeStart = type == null ? rangeStarts.computeIfAbsent(start, s -> new Label()) : start;
            super.visitTryCatchBlock(rangeStart, rangeEnds.computeIfAbsent(end, e -> new Label()), handler, type);
        }

        @Override
        public void visitLabel(Label label) {
            Label rangeEnd = rangeEnds.get(label);
            if (rangeEnd != null) {
                super.visitLabel(rangeEnd);
            }
            Label rangeStart = rangeStarts.get(label);
            if (rangeStart != null && pendingHook == RuntimeHooks.MONITOR_ENTERED) {
                super.visitLabel(rangeStart);
                rangeStart = null;
            }
            emitPendingHook();
            if (rangeStart != null) {
                super.visitLabel(rangeStart);
            }
            super.visitLabel(label);
        }

        @Override
        public void visitInsn(int opcode) {
            emitPendingHook();
            if (opcode == Opcodes.MONITORENTER) {
                counts.add(RewriteCounts.Kind.MONITOR_ENTER);
                super.visitInsn(Opcodes.DUP);
                super.visitInsn(Opcodes.MONITORENTER);
                pendingHook = RuntimeHooks.MONITOR_ENTERED;
            } else if (opcode == Opcodes.MONITOREXIT) {
                counts.add(RewriteCounts.Kind.MONITOR_EXIT);
                super.visitInsn(Opcodes.DUP);
                super.visitInsn(Opcodes.MONITOREXIT);
                pendingHook = RuntimeHooks.MONITOR_EXIT;
            } else {
                super.visitInsn(opcode);
            }
        }

        private void emitPendingHook() {
            if (pendingHook != null) {
                hooks.invoke(mv, pendingHook);
                pendingHook = null;
            }
        }

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
            emitPendingHook();
            super.visitFrame(type, numLocal, local, numStack, stack);
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            emitPendingHook();
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitVarInsn(int opcode, int varIndex) {
            emitPendingHook();
            super.visitVarInsn(opcode, varIndex);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            emitPendingHook();
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            emitPendingHook();
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            emitPendingHook();
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
            emitPendingHook();
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            emitPendingHook();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitLdcInsn(Object value) {
            emitPendingHook();
            super.visitLdcInsn(value);
        }

        @Override
        public void visitIincInsn(int varIndex, int increment) {
            emitPendingHook();
            super.visitIincInsn(varIndex, increment);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            emitPendingHook();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            emitPendingHook();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
            emitPendingHook();
            super.visitMultiANewArrayInsn(descriptor, numDimensions);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            emitPendingHook();
            super.visitMaxs(maxStack, maxLocals);
        }
    }
}
