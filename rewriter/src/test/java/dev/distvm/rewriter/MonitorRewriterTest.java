package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class MonitorRewriterTest {
    public static final class NestedBlocks {
        public static final Named A = new Named("a");
        public static final Named B = new Named("b");

        public static String run() {
            StringBuilder out = new StringBuilder();
            synchronized (A) {
                out.append(Thread.holdsLock(A)).append(' ');
                synchronized (B) {
                    out.append(Thread.holdsLock(B)).append(' ');
                }
                out.append(Thread.holdsLock(B)).append(' ');
            }
            return out.append(Thread.holdsLock(A)).toString();
        }
    }

    public static final class LeftByException {
        public static final Named LOCK = new Named("lock");

        public static String run() {
            try {
                synchronized (LOCK) {
                    throw new IllegalStateException("thrown inside");
                }
            } catch (IllegalStateException e) {
                return e.getMessage() + " " + Thread.holdsLock(LOCK);
            }
        }
    }

    @BeforeEach
    void reset() {
        RecordingHooks.reset();
    }

    @Test
    void nestedBlocksEnterAndExitThroughTheHooksInOrder() throws Throwable {
        Rewritten subject = new Rewritten(NestedBlocks.class);
        assertEquals("true true false false", subject.call("run"));
        // The enter hook runs holding the object's own monitor, the exit hook once it is let go.
        assertEquals(List.of("monitorEntered(a, held)", "monitorEntered(b, held)", "monitorExit(b, not held)",
                "monitorExit(a, not held)"), RecordingHooks.calls);
        // javac exits each block twice: on the normal path and in its catch-any handler.
        assertEquals(Map.of(Kind.MONITOR_ENTER, 2, Kind.MONITOR_EXIT, 4), subject.concurrencyCounts(NestedBlocks.class));
    }

    @Test
    void blockLeftByAnExceptionReleasesTheMonitor() throws Throwable {
        Rewritten subject = new Rewritten(LeftByException.class);
        assertEquals("thrown inside false", subject.call("run"));
        assertEquals(List.of("monitorEntered(lock, held)", "monitorExit(lock, not held)"), RecordingHooks.calls);
        Locks.assertAnotherThreadCanLock(subject.load(LeftByException.class).getField("LOCK").get(null));
    }

    @Test
    void eachExitUnlocksTheValueItsEnterLockedSoTheJitCanMatchThem() {
        for (Class<?> subject : List.of(NestedBlocks.class, LeftByException.class)) {
            byte[] rewritten = Rewritten.rewrite(subject);
            assertTrue(MonitorBalance.monitorEnters(rewritten) > 0, subject.getName());
            assertEquals(List.of(), MonitorBalance.problems(rewritten), subject.getName());
        }
    }

    @Test
    void anExitOfAnotherValueThanTheEnterIsCaught() {
        // The shape an earlier rewriting had: each monitor instruction on a hook call's result.
        byte[] unbalanced = oneMethod(method -> {
            for (int opcode : new int[] {Opcodes.MONITORENTER, Opcodes.MONITOREXIT}) {
                method.visitVarInsn(Opcodes.ALOAD, 0);
                method.visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/Objects", "requireNonNull",
                        "(Ljava/lang/Object;)Ljava/lang/Object;", false);
                method.visitInsn(opcode);
            }
        });
        assertEquals(List.of("run(Ljava/lang/Object;)V: monitorexit at 5 unlocks a value no monitorenter locked"),
                MonitorBalance.problems(unbalanced));
    }

    @Test
    void aCallHoldingAMonitorOutsideACatchAnyHandlerIsCaught() {
        // The enter hook placed before the start of javac's handler range, as it first was.
        byte[] uncovered = oneMethod(method -> {
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitInsn(Opcodes.MONITORENTER);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/Objects", "hashCode", "(Ljava/lang/Object;)I", false);
            method.visitInsn(Opcodes.POP);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitInsn(Opcodes.MONITOREXIT);
        });
        assertEquals(List.of("run(Ljava/lang/Object;)V: instruction 3 may throw holding a monitor, outside any catch-any handler"),
                MonitorBalance.problems(uncovered));
    }

    @Test
    void aCallInAHandlerThatCoversItselfIsCaught() {
        // The exit hook placed before the monitorexit of javac's handler, inside the handler's own range, as it first was.
        byte[] selfCovered = oneMethod(method -> {
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            Label handlerEnd = new Label();
            Label after = new Label();
            method.visitTryCatchBlock(start, end, handler, null);
            method.visitTryCatchBlock(handler, handlerEnd, handler, null);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitInsn(Opcodes.MONITORENTER);
            method.visitLabel(start);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitInsn(Opcodes.MONITOREXIT);
            method.visitLabel(end);
            method.visitJumpInsn(Opcodes.GOTO, after);
            method.visitLabel(handler);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitInsn(Opcodes.DUP);
            method.visitMethodInsn(Opcodes.INVOKESTATIC, "java/util/Objects", "hashCode", "(Ljava/lang/Object;)I", false);
            method.visitInsn(Opcodes.POP);
            method.visitInsn(Opcodes.MONITOREXIT);
            method.visitLabel(handlerEnd);
            method.visitInsn(Opcodes.ATHROW);
            method.visitLabel(after);
        });
        assertEquals(List.of("run(Ljava/lang/Object;)V: instruction 10 may throw in a handler whose range covers it"),
                MonitorBalance.problems(selfCovered));
    }

    /** A class with one method {@code static void run(Object)}: {@code code}, then return. */
    private static byte[] oneMethod(java.util.function.Consumer<MethodVisitor> code) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "Subject", null, "java/lang/Object", null);
        MethodVisitor method = writer.visitMethod(Opcodes.ACC_STATIC, "run", "(Ljava/lang/Object;)V", null, null);
        method.visitCode();
        code.accept(method);
        method.visitInsn(Opcodes.RETURN);
        method.visitMaxs(4, 1);
        writer.visitEnd();
        return writer.toByteArray();
    }

    @Test
    void classWithoutMonitorsGetsNoMonitorHooks() {
        assertEquals(Map.of(), new Rewritten(Named.class).concurrencyCounts(Named.class));
    }
}
