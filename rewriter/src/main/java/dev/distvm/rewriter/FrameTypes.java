package dev.distvm.rewriter;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** How a value of a Java type appears in a stack map frame written with {@code visitFrame(F_NEW, ...)}. */
final class FrameTypes {
    private FrameTypes() {}

    static Object of(Type type) {
        return switch (type.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
            case Type.FLOAT -> Opcodes.FLOAT;
            case Type.LONG -> Opcodes.LONG;
            case Type.DOUBLE -> Opcodes.DOUBLE;
            case Type.ARRAY -> type.getDescriptor();
            default -> type.getInternalName();
        };
    }
}
