package dev.distvm.rewriter;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** Code that turns a primitive value on the stack into its box and back, as javac's autoboxing does. */
final class Boxes {
    private Boxes() {}

    /** The primitive on top of the stack becomes its box ({@code Integer.valueOf} and the like). */
    static void box(MethodVisitor method, Type primitive) {
        String box = boxOf(primitive);
        method.visitMethodInsn(Opcodes.INVOKESTATIC, box, "valueOf",
                "(" + primitive.getDescriptor() + ")L" + box + ";", false);
    }

    /** The {@code Object} on top of the stack, a box of {@code primitive}'s type, becomes the primitive. */
    static void unbox(MethodVisitor method, Type primitive) {
        String box = boxOf(primitive);
        method.visitTypeInsn(Opcodes.CHECKCAST, box);
        method.visitMethodInsn(Opcodes.INVOKEVIRTUAL, box, primitive.getClassName() + "Value",
                "()" + primitive.getDescriptor(), false);
    }

    private static String boxOf(Type primitive) {
        return switch (primitive.getSort()) {
            case Type.BOOLEAN -> "java/lang/Boolean";
            case Type.CHAR -> "java/lang/Character";
            case Type.BYTE -> "java/lang/Byte";
            case Type.SHORT -> "java/lang/Short";
            case Type.INT -> "java/lang/Integer";
            case Type.FLOAT -> "java/lang/Float";
            case Type.LONG -> "java/lang/Long";
            case Type.DOUBLE -> "java/lang/Double";
            default -> throw new IllegalArgumentException("not a primitive type: " + primitive);
        };
    }
}
