package dev.distvm.rewriter;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** Code of a generated method that hands its own receiver and arguments on to another method. */
final class SameArguments {
    private SameArguments() {}

    /**
     * Calls the private method {@code target} of {@code owner}, whose descriptor is that of the
     * method being written, with this method's receiver (unless static) and arguments.
     */
    static void callPrivate(MethodVisitor method, String owner, boolean isStatic, String target, String descriptor) {
        int slot = 0;
        if (!isStatic) {
            method.visitVarInsn(Opcodes.ALOAD, slot++);
        }
        for (Type argument : Type.getArgumentTypes(descriptor)) {
            method.visitVarInsn(argument.getOpcode(Opcodes.ILOAD), slot);
            slot += argument.getSize();
        }
        // invokespecial reaches a private method of the same class in every class file version
        // (invokevirtual does only from Java 11's nestmates on).
        method.visitMethodInsn(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, owner, target, descriptor, false);
    }
}
