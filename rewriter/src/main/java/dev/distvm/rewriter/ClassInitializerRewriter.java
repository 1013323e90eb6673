package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Lets the runtime decide, before a class initializer runs, whether it runs on this node at all (on
 * a worker the statics come from the node that initialized the class):
 * {@code if (!HOOK.runClassInitializer(C.class)) return;} in front of every {@code <clinit>}, and a
 * {@code <clinit>} for classes with static fields but none, so that the runtime hears of them too.
 */
final class ClassInitializerRewriter extends ClassVisitor {
    private final HookCalls hooks;
    private final RewriteCounts counts;
    private String className;
    private int majorVersion;
    private boolean hasStaticFields;
    private boolean hasClassInitializer;

    ClassInitializerRewriter(ClassVisitor next, HookCalls hooks, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.counts = counts;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        className = name;
        majorVersion = version & 0xFFFF;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        hasStaticFields |= (access & Opcodes.ACC_STATIC) != 0;
        return super.visitField(access, name, descriptor, signature, value);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (!name.equals("<clinit>")) {
            return next;
        }
        hasClassInitializer = true;
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                insertPrologue(this);
                accept(next);
            }
        };
    }

    @Override
    public void visitEnd() {
        if (!hasClassInitializer && hasStaticFields) {
            MethodNode initializer = new MethodNode(Opcodes.ASM9, Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
            initializer.instructions.add(new InsnNode(Opcodes.RETURN));
            insertPrologue(initializer);
            initializer.accept(cv);
            counts.add(Kind.CLASS_INITIALIZER_ADDED);
        }
        super.visitEnd();
    }

    private void insertPrologue(MethodNode initializer) {
        MethodNode prologue = new MethodNode();
        ClassLiterals.push(prologue, className, majorVersion);
        hooks.invoke(prologue, RuntimeHooks.RUN_CLASS_INITIALIZER);
        Label body = new Label();
        prologue.visitJumpInsn(Opcodes.IFNE, body);
        prologue.visitInsn(Opcodes.RETURN);
        prologue.visitLabel(body);
        // The body is now a branch target. If it already was one, its own frame stands (it held
        // for the empty entry frame, which is what reaches it from here); two frames at one offset
        // would be rejected.
        if (majorVersion >= Opcodes.V1_6 && !startsWithFrame(initializer)) {
            prologue.visitFrame(Opcodes.F_NEW, 0, new Object[0], 0, new Object[0]);
        }
        initializer.instructions.insert(prologue.instructions);
        counts.add(Kind.CLASS_INITIALIZER_PROLOGUE);
    }

    private static boolean startsWithFrame(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof FrameNode) {
                return true;
            }
            if (insn.getOpcode() >= 0) {
                return false;
            }
        }
        return false;
    }
}
