package dev.distvm.rewriter;

import java.util.BitSet;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * Finds the {@code putfield}s of a constructor whose object is {@code uninitializedThis} (javac's
 * {@code this$0} before {@code super()}, and any write in a constructor prologue), which must stay
 * direct because the verifier lets no method receive an uninitialized object.
 *
 * <p>A data-flow analysis instead of the class file's frames: class files older than Java 6 have no
 * frames, and a constructor may branch before its {@code super()} call.
 */
final class UninitializedThisWrites {
    private static final BasicValue UNINITIALIZED_THIS_VALUE = new BasicValue(Type.getObjectType("uninitializedThis"));

    private UninitializedThisWrites() {}

    /** Bit i is set when the i-th field instruction of {@code constructor} writes to uninitializedThis. */
    static BitSet find(String owner, MethodNode constructor) {
        Frame<BasicValue>[] frames;
        try {
            frames = new ConstructorAnalyzer().analyze(owner, constructor);
        } catch (AnalyzerException e) {
            throw new IllegalArgumentException("cannot analyze " + owner + ".<init>" + constructor.desc, e);
        }
        BitSet writes = new BitSet();
        int instruction = 0;
        int fieldInstruction = 0;
        for (AbstractInsnNode insn : constructor.instructions) {
            if (insn instanceof FieldInsnNode) {
                Frame<BasicValue> before = frames[instruction];
                if (insn.getOpcode() == Opcodes.PUTFIELD && before != null
                        && before.getStack(before.getStackSize() - 2) == UNINITIALIZED_THIS_VALUE) {
                    writes.set(fieldInstruction);
                }
                fieldInstruction++;
            }
            instruction++;
        }
        return writes;
    }

    private static final class ConstructorAnalyzer extends Analyzer<BasicValue> {
        ConstructorAnalyzer() {
            super(new ReceiverInterpreter());
        }

        @Override
        protected Frame<BasicValue> newFrame(int numLocals, int numStack) {
            return new ConstructorFrame(numLocals, numStack);
        }

        @Override
        protected Frame<BasicValue> newFrame(Frame<? extends BasicValue> frame) {
            return new ConstructorFrame(frame);
        }
    }

    private static final class ReceiverInterpreter extends BasicInterpreter {
        ReceiverInterpreter() {
            super(Opcodes.ASM9);
        }

        @Override
        public BasicValue newParameterValue(boolean isInstanceMethod, int local, Type type) {
            return local == 0 ? UNINITIALIZED_THIS_VALUE : super.newParameterValue(isInstanceMethod, local, type);
        }
    }

    /** Turns every copy of uninitializedThis into an ordinary reference once super()/this() ran. */
    private static final class ConstructorFrame extends Frame<BasicValue> {
        ConstructorFrame(int numLocals, int numStack) {
            super(numLocals, numStack);
        }

        ConstructorFrame(Frame<? extends BasicValue> frame) {
            super(frame);
        }

        @Override
        public void execute(AbstractInsnNode insn, Interpreter<BasicValue> interpreter) throws AnalyzerException {
            boolean initializesThis = insn.getOpcode() == Opcodes.INVOKESPECIAL && receivesUninitializedThis((MethodInsnNode) insn);
            super.execute(insn, interpreter);
            if (initializesThis) {
                for (int i = 0; i < getLocals(); i++) {
                    if (getLocal(i) == UNINITIALIZED_THIS_VALUE) {
                        setLocal(i, BasicValue.REFERENCE_VALUE);
                    }
                }
                for (int i = 0; i < getStackSize(); i++) {
                    if (getStack(i) == UNINITIALIZED_THIS_VALUE) {
                        setStack(i, BasicValue.REFERENCE_VALUE);
                    }
                }
            }
        }

        private boolean receivesUninitializedThis(MethodInsnNode call) {
            int receiver = getStackSize() - 1 - Type.getArgumentTypes(call.desc).length;
            return call.name.equals("<init>") && getStack(receiver) == UNINITIALIZED_THIS_VALUE;
        }
    }
}
