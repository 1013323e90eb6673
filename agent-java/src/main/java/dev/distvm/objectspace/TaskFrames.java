package dev.distvm.objectspace;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Runs a placed thread's task from a frame that stack traces do not show: a method of a hidden
 * class, which the JVM leaves out of a {@code Throwable}'s stack trace and of
 * {@code Thread.getStackTrace} as it leaves out a lambda's own class. On one JVM
 * {@code Thread.run} calls a task's {@code run} directly, and a program that prints the stack trace
 * of an exception its thread caught prints that; a worker's own frames between the two (the
 * placed thread's start and end) would show in it. The work before and after the task is done by
 * {@link Around#before} and {@link Around#after}, which return before and start after the task's
 * run, so none of their frames is below the task's either.
 */
final class TaskFrames {
    /** What a placed thread does around its task. */
    interface Around {
        void before();

        Runnable task();

        /** {@code thrown}: what escaped the task's run, or null. */
        void after(Throwable thrown);
    }

    private static final String AROUND = Type.getInternalName(Around.class);
    private static final MethodHandle MAKE = hiddenRunnable();

    private TaskFrames() {}

    /** Nothing but this class's initialization, which writes and defines the hidden class (tens of milliseconds in a fresh JVM). */
    static void prepare() {
        // the class initializer did the work
    }

    /** A runnable that calls {@code around}'s before, its task's run and its after, from a hidden frame. */
    static Runnable around(Around around) {
        try {
            return (Runnable) MAKE.invoke(around);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code final class TaskFrames$Frame implements Runnable { final Around around; public void run() {...} }}, hidden. */
    private static MethodHandle hiddenRunnable() {
        String name = Type.getInternalName(TaskFrames.class) + "$Frame";
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return "java/lang/Object"; // only Throwable and null meet, which ASM merges itself
            }
        };
        writer.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, "java/lang/Object",
                new String[] {"java/lang/Runnable"});
        writer.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "around", "L" + AROUND + ";", null, null).visitEnd();
        MethodVisitor init = writer.visitMethod(0, "<init>", "(L" + AROUND + ";)V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 1);
        init.visitFieldInsn(Opcodes.PUTFIELD, name, "around", "L" + AROUND + ";");
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor run = writer.visitMethod(Opcodes.ACC_PUBLIC, "run", "()V", null, null);
        run.visitCode();
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label after = new Label();
        run.visitTryCatchBlock(start, end, handler, "java/lang/Throwable");
        aroundCall(run, name, "before", "()V");
        run.visitInsn(Opcodes.ACONST_NULL);
        run.visitVarInsn(Opcodes.ASTORE, 1);
        run.visitLabel(start);
        aroundCall(run, name, "task", "()Ljava/lang/Runnable;");
        run.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/lang/Runnable", "run", "()V", true);
        run.visitLabel(end);
        run.visitJumpInsn(Opcodes.GOTO, after);
        run.visitLabel(handler);
        run.visitVarInsn(Opcodes.ASTORE, 1);
        run.visitLabel(after);
        run.visitVarInsn(Opcodes.ALOAD, 0);
        run.visitFieldInsn(Opcodes.GETFIELD, name, "around", "L" + AROUND + ";");
        run.visitVarInsn(Opcodes.ALOAD, 1);
        run.visitMethodInsn(Opcodes.INVOKEINTERFACE, AROUND, "after", "(Ljava/lang/Throwable;)V", true);
        run.visitInsn(Opcodes.RETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
        writer.visitEnd();
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(writer.toByteArray(), true);
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class, Around.class))
                    .asType(MethodType.methodType(Runnable.class, Around.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static void aroundCall(MethodVisitor run, String owner, String method, String descriptor) {
        run.visitVarInsn(Opcodes.ALOAD, 0);
        run.visitFieldInsn(Opcodes.GETFIELD, owner, "around", "L" + AROUND + ";");
        run.visitMethodInsn(Opcodes.INVOKEINTERFACE, AROUND, method, descriptor, true);
    }
}
