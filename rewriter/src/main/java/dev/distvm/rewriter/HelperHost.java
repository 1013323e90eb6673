package dev.distvm.rewriter;

import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A visitor that adds synthetic static helpers to the class it rewrites, and so must know what the
 * class is: its name (the helpers' owner), whether it is an interface (whose helpers must be
 * public: Java 8 interfaces cannot have private methods) and its class file version (frames from
 * Java 6 on; interfaces hold no static methods before Java 8).
 */
abstract class HelperHost extends ClassVisitor {
    protected String className;
    protected boolean isInterface;
    /** An enum or an enum constant's body: its constants are made on every node, never shared. */
    protected boolean isEnum;
    protected int majorVersion;

    protected HelperHost(ClassVisitor next) {
        super(Opcodes.ASM9, next);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        className = name;
        isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
        isEnum = (access & Opcodes.ACC_ENUM) != 0;
        majorVersion = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    /** The access flags of a helper: static and synthetic, private but in an interface. */
    protected final int helperAccess() {
        return Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC | (isInterface ? Opcodes.ACC_PUBLIC : Opcodes.ACC_PRIVATE);
    }

    /** An interface older than Java 8 cannot hold a static method. */
    protected final boolean cannotHoldHelpers() {
        return isInterface && majorVersion < Opcodes.V1_8;
    }

    /** Whether the class file has stack map frames to write for added branch targets. */
    protected final boolean hasFrames() {
        return majorVersion >= Opcodes.V1_6;
    }
}
