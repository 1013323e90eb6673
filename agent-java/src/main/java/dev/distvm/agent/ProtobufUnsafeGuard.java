package dev.distvm.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Keeps dist's relocated copy of protobuf-java off {@code sun.misc.Unsafe} on JDK 24 and later,
 * where the first use prints four WARNING lines on the standard error of the user's program
 * (JEP 498; protobuf-java up to 4.35 still does it). {@code UnsafeUtil.getUnsafe()} is made to
 * answer null, which is protobuf's own path for platforms without Unsafe. On earlier JDKs nothing
 * is changed. It must be installed before the first protobuf class loads.
 */
final class ProtobufUnsafeGuard implements ClassFileTransformer {
    private static final String UNSAFE_UTIL = "dev/distvm/shaded/com/google/protobuf/UnsafeUtil";
    private static final int FIRST_WARNING_JDK = 24;

    static void install(Instrumentation instrumentation) {
        if (Runtime.version().feature() >= FIRST_WARNING_JDK) {
            instrumentation.addTransformer(new ProtobufUnsafeGuard());
        }
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (!UNSAFE_UTIL.equals(className)) {
            return null;
        }
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                MethodVisitor method = super.visitMethod(access, name, descriptor, signature, exceptions);
                if (!name.equals("getUnsafe") || !descriptor.equals("()Lsun/misc/Unsafe;")) {
                    return method;
                }
                method.visitCode();
                method.visitInsn(Opcodes.ACONST_NULL);
                method.visitInsn(Opcodes.ARETURN);
                method.visitMaxs(1, 0);
                method.visitEnd();
                return null; // the original body is dropped
            }
        }, 0);
        return writer.toByteArray();
    }
}
