package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * After every array store instruction, the hook that marks the written chunk if the array is
 * shared: a release then compares the chunks written since the last one instead of every shared
 * array whole. The store stays the application's own instruction, so a null array, a bad index or
 * an element of the wrong type throws what one JVM throws, in the application's frame, with the
 * JVM's message (a hook that stored threw from dist's frame, naming its own parameter): the value
 * is spilled to a fresh local past the method's own, the array and index duplicated under it and
 * the value loaded back, {@code xstore v; dup2; xload v; xastore; arrayStored(a, i)}. On a worker a
 * primitive store first faults the element's chunk in ({@code dup2; arrayRead(a, i)}, quiet for a
 * null array or a bad index, as before a load): a write needs the chunk too (AbsentChunks). No
 * stack effect and no branch, so the frames stay valid; the spilled local lives only in that
 * straight-line sequence.
 */
final class ArrayStoreRewriter extends ClassVisitor {
    private final HookCalls hooks;
    private final RewriteCounts counts;
    private final boolean storesMayFault;

    ArrayStoreRewriter(ClassVisitor next, HookCalls hooks, RewriteCounts counts, boolean storesMayFault) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.counts = counts;
        this.storesMayFault = storesMayFault;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        // Buffered: the spilled local goes past the method's last, known only at its end.
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                insertHooks(this);
                accept(next);
            }
        };
    }

    private void insertHooks(MethodNode method) {
        int spill = ArrayReadRewriter.firstUnusedLocal(method);
        int spilledSlots = 0;
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            Type value = valueOf(insn.getOpcode());
            if (value == null) {
                continue;
            }
            MethodNode before = new MethodNode();
            before.visitVarInsn(value.getOpcode(Opcodes.ISTORE), spill);
            before.visitInsn(Opcodes.DUP2);
            if (storesMayFault && value.getSort() != Type.OBJECT) {
                before.visitInsn(Opcodes.DUP2);
                hooks.invoke(before, RuntimeHooks.ARRAY_READ);
            }
            before.visitVarInsn(value.getOpcode(Opcodes.ILOAD), spill);
            method.instructions.insertBefore(insn, before.instructions);
            MethodNode after = new MethodNode();
            hooks.invoke(after, RuntimeHooks.ARRAY_STORED);
            method.instructions.insert(insn, after.instructions);
            spilledSlots = Math.max(spilledSlots, value.getSize());
            counts.add(Kind.ARRAY_STORE);
        }
        method.maxLocals = Math.max(method.maxLocals, spill + spilledSlots);
    }

    /** The type of the value an array store instruction stores, as a local holds it; null for any other instruction. */
    private static Type valueOf(int opcode) {
        return switch (opcode) {
            case Opcodes.IASTORE, Opcodes.BASTORE, Opcodes.CASTORE, Opcodes.SASTORE -> Type.INT_TYPE;
            case Opcodes.LASTORE -> Type.LONG_TYPE;
            case Opcodes.FASTORE -> Type.FLOAT_TYPE;
            case Opcodes.DASTORE -> Type.DOUBLE_TYPE;
            case Opcodes.AASTORE -> Type.getType(Object.class);
            default -> null;
        };
    }
}
