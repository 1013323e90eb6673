package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.Method;

/**
 * Replaces every array store instruction by the hook of its element type, which stores and then
 * marks the written chunk if the array is shared: a release then compares the chunks written
 * since the last one instead of every shared array whole. The hook takes the instruction's three
 * operands and leaves nothing, as the instruction does, so the frames stay valid. {@code bastore}
 * serves {@code byte[]} and {@code boolean[]} alike, so its hook takes the array as an object and
 * stores by its runtime type.
 */
final class ArrayStoreRewriter extends ClassVisitor {
    private final HookCalls hooks;
    private final RewriteCounts counts;

    ArrayStoreRewriter(ClassVisitor next, HookCalls hooks, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitInsn(int opcode) {
                Method hook = hookOf(opcode);
                if (hook == null) {
                    super.visitInsn(opcode);
                } else {
                    hooks.invoke(mv, hook);
                    counts.add(Kind.ARRAY_STORE);
                }
            }
        };
    }

    private static Method hookOf(int opcode) {
        return switch (opcode) {
            case Opcodes.IASTORE -> RuntimeHooks.STORE_INT;
            case Opcodes.LASTORE -> RuntimeHooks.STORE_LONG;
            case Opcodes.FASTORE -> RuntimeHooks.STORE_FLOAT;
            case Opcodes.DASTORE -> RuntimeHooks.STORE_DOUBLE;
            case Opcodes.CASTORE -> RuntimeHooks.STORE_CHAR;
            case Opcodes.SASTORE -> RuntimeHooks.STORE_SHORT;
            case Opcodes.BASTORE -> RuntimeHooks.STORE_BYTE_OR_BOOLEAN;
            case Opcodes.AASTORE -> RuntimeHooks.STORE_REFERENCE;
            default -> null;
        };
    }
}
