package dev.distvm.rewriter;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

final class ClassLiterals {
    private ClassLiterals() {}

    /**
     * Pushes {@code C.class}. Class files older than Java 5 cannot {@code ldc} a class, so there it is
     * {@code Class.forName}, which resolves through the calling class's loader as the constant would;
     * the initialization it triggers is one the surrounding code triggers anyway (a static access to C,
     * or C's own initializer, which is already running).
     */
    static void push(MethodVisitor method, String internalName, int majorVersion) {
        if (majorVersion >= Opcodes.V1_5) {
            method.visitLdcInsn(Type.getObjectType(internalName));
        } else {
            method.visitLdcInsn(Type.getObjectType(internalName).getClassName());
            method.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Class", "forName",
                    "(Ljava/lang/String;)Ljava/lang/Class;", false);
        }
    }
}
