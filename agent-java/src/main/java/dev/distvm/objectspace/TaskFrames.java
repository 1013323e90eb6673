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
 * {@code Thread.getStackTrace} as it leaves out a lambda's own class. On one JVM a thread's stack
 * starts with {@code Thread.run} calling a task's {@code run} (or with a {@code Thread} subclass's
 * own {@code run}), and a program that prints the stack trace of an exception its thread caught
 * prints that; a worker's own frames between them (the placed thread's start and end) would show.
 * The work before and after the task is done by {@link Around#before} and {@link Around#after},
 * which return before and start after the task's run, so none of their frames is below it either.
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
    /** (Around) -> a hidden Runnable, for a thread whose task is a Runnable: Thread.run calls it. */
    private static final MethodHandle RUNNABLE = hidden("Runnable", "java/lang/Object", new String[] {"java/lang/Runnable"},
            MethodType.methodType(void.class), Runnable.class);
    /** (Around, ThreadGroup, String, long stack size) -> a hidden Thread, for a task that is a Thread subclass: nothing is below its run. */
    private static final MethodHandle THREAD = hidden("Thread", Type.getInternalName(WorkerThread.class), new String[0],
            MethodType.methodType(void.class, ThreadGroup.class, String.class, long.class), Thread.class);

    private TaskFrames() {}

    /** Nothing but this class's initialization, which writes and defines the hidden classes (tens of milliseconds in a fresh JVM). */
    static void prepare() {
        // the class initializer did the work
    }

    /**
     * An unstarted thread in {@code group} named {@code name} that calls {@code around}'s before,
     * its task's run and its after, with a stack like the one the task has on one JVM, of the size
     * the program asked for ({@code stackSize}, 0 for the JVM's default).
     */
    static Thread thread(ThreadGroup group, String name, long stackSize, Around around) {
        try {
            if (around.task() instanceof Thread) {
                return (Thread) THREAD.invoke(around, group, name, stackSize);
            }
            return new WorkerThread(group, (Runnable) RUNNABLE.invoke(around), name, stackSize);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code final class TaskFrames$<kind> extends <superclass> implements <interfaces> { final Around
     * around; <init>(Around, <super's parameters>); public void run() {...} }}, hidden; returns its
     * constructor, typed {@code (Around, <super's parameters>) -> <type>}.
     */
    private static MethodHandle hidden(String kind, String superclass, String[] interfaces, MethodType superConstructor,
            Class<?> type) {
        String name = Type.getInternalName(TaskFrames.class) + "$" + kind;
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return "java/lang/Object"; // only Throwable and null meet, which ASM merges itself
            }
        };
        writer.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, superclass, interfaces);
        writer.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, "around", "L" + AROUND + ";", null, null).visitEnd();
        MethodType constructor = superConstructor.insertParameterTypes(0, Around.class);
        MethodVisitor init = writer.visitMethod(0, "<init>", constructor.toMethodDescriptorString(), null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        int slot = 2; // after this and the Around
        for (Class<?> parameter : superConstructor.parameterArray()) {
            Type parameterType = Type.getType(parameter);
            init.visitVarInsn(parameterType.getOpcode(Opcodes.ILOAD), slot);
            slot += parameterType.getSize();
        }
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, superclass, "<init>", superConstructor.toMethodDescriptorString(), false);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitVarInsn(Opcodes.ALOAD, 1);
        init.visitFieldInsn(Opcodes.PUTFIELD, name, "around", "L" + AROUND + ";");
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        writeRun(writer.visitMethod(Opcodes.ACC_PUBLIC, "run", "()V", null, null), name);
        writer.visitEnd();
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(writer.toByteArray(), true);
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class, constructor.parameterArray()))
                    .asType(constructor.changeReturnType(type));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** {@code around.before(); Throwable thrown = null; try { around.task().run(); } catch (Throwable t) { thrown = t; } around.after(thrown);} */
    private static void writeRun(MethodVisitor run, String owner) {
        run.visitCode();
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        Label after = new Label();
        run.visitTryCatchBlock(start, end, handler, "java/lang/Throwable");
        aroundCall(run, owner, "before", "()V");
        run.visitInsn(Opcodes.ACONST_NULL);
        run.visitVarInsn(Opcodes.ASTORE, 1);
        run.visitLabel(start);
        aroundCall(run, owner, "task", "()Ljava/lang/Runnable;");
        run.visitMethodInsn(Opcodes.INVOKEINTERFACE, "java/lang/Runnable", "run", "()V", true);
        run.visitLabel(end);
        run.visitJumpInsn(Opcodes.GOTO, after);
        run.visitLabel(handler);
        run.visitVarInsn(Opcodes.ASTORE, 1);
        run.visitLabel(after);
        run.visitVarInsn(Opcodes.ALOAD, 0);
        run.visitFieldInsn(Opcodes.GETFIELD, owner, "around", "L" + AROUND + ";");
        run.visitVarInsn(Opcodes.ALOAD, 1);
        run.visitMethodInsn(Opcodes.INVOKEINTERFACE, AROUND, "after", "(Ljava/lang/Throwable;)V", true);
        run.visitInsn(Opcodes.RETURN);
        run.visitMaxs(0, 0);
        run.visitEnd();
    }

    private static void aroundCall(MethodVisitor run, String owner, String method, String descriptor) {
        run.visitVarInsn(Opcodes.ALOAD, 0);
        run.visitFieldInsn(Opcodes.GETFIELD, owner, "around", "L" + AROUND + ";");
        run.visitMethodInsn(Opcodes.INVOKEINTERFACE, AROUND, method, descriptor, true);
    }
}
