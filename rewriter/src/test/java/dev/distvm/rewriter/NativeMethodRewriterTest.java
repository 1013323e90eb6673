package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

class NativeMethodRewriterTest {
    /**
     * Native methods with no library behind them. Each {@code NAME$standIn} is what a test that
     * links stand-ins ({@link #linkStandIns}) runs as the native code of {@code NAME}; it records
     * its arguments, so a test sees what the wrapper passed on. Nothing here needs more than class
     * file version 48 (no class constants, no invokedynamic string concatenation).
     */
    public static final class Natives {
        @Marker("mix")
        public static native long mix(@Marker("a") int a, long b, double c, Object d) throws IOException;

        protected native double scale(double factor, long times);

        public synchronized native int locked(int x);

        private static long mix$standIn(int a, long b, double c, Object d) {
            RecordingHooks.note(new StringBuilder("mix$standIn(").append(a).append(", ").append(b).append(", ")
                    .append(c).append(", ").append(d).append(')').toString());
            return a + b + (long) c;
        }

        private double scale$standIn(double factor, long times) {
            RecordingHooks.note(new StringBuilder("scale$standIn(").append(this).append(", ").append(factor)
                    .append(", ").append(times).append(')').toString());
            return factor * times;
        }

        private int locked$standIn(int x) {
            RecordingHooks.note(new StringBuilder("locked$standIn(").append(x).append(", holds lock ")
                    .append(Thread.holdsLock(this)).append(')').toString());
            return x * 2;
        }

        public static String run() throws IOException {
            Natives natives = new Natives();
            return new StringBuilder().append(mix(1, 1L << 40, 2.5, "d")).append(' ').append(natives.scale(1.5, 3L))
                    .append(' ').append(natives.locked(21)).toString();
        }

        @Override
        public String toString() {
            return "natives";
        }
    }

    @BeforeEach
    void reset() {
        RecordingHooks.reset();
    }

    /** Gives each renamed native a body that calls its {@code $standIn}: a library for a test that has none. */
    private static byte[] linkStandIns(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            private String owner;

            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                owner = name;
                super.visit(version, access, name, signature, superName, interfaces);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if (!name.startsWith(NativeMethodRewriter.PREFIX)) {
                    return super.visitMethod(access, name, descriptor, signature, exceptions);
                }
                String original = name.substring(NativeMethodRewriter.PREFIX.length());
                MethodVisitor body = super.visitMethod(access & ~Opcodes.ACC_NATIVE, name, descriptor, signature, exceptions);
                body.visitCode();
                SameArguments.callPrivate(body, owner, (access & Opcodes.ACC_STATIC) != 0, original + "$standIn", descriptor);
                body.visitInsn(Type.getReturnType(descriptor).getOpcode(Opcodes.IRETURN));
                body.visitMaxs(0, 0);
                body.visitEnd();
                return null;
            }
        }, 0);
        return writer.toByteArray();
    }

    private static Rewritten withStandIns() {
        return new Rewritten(Natives.class, classFile -> classFile, NativeMethodRewriterTest::linkStandIns);
    }

    @Test
    void eachNativeAsksTheHookThenRunsWithTheSameArgumentsAndResult() throws Throwable {
        Rewritten subject = withStandIns();
        assertEquals("1099511627779 4.5 42", subject.call("run"));
        assertEquals(List.of(
                "nativeMethod(class Natives, mix)", "mix$standIn(1, 1099511627776, 2.5, d)",
                "nativeMethod(class Natives, scale)", "scale$standIn(natives, 1.5, 3)",
                "monitorEntered(natives, held)",
                "nativeMethod(class Natives, locked)", "locked$standIn(21, holds lock true)",
                "monitorExit(natives, not held)"),
                RecordingHooks.calls);
        assertEquals(Map.of(Kind.NATIVE_METHOD, 3, Kind.SYNCHRONIZED_METHOD, 1, Kind.MONITOR_ENTER, 1, Kind.MONITOR_EXIT, 2),
                subject.concurrencyCounts(Natives.class));
    }

    @Test
    void withoutItsLibraryTheRenamedNativeFailsToLinkAfterTheHookWasAsked() throws Throwable {
        Rewritten subject = new Rewritten(Natives.class);
        UnsatisfiedLinkError error = assertThrows(UnsatisfiedLinkError.class, () -> subject.call("run"));
        assertTrue(error.getMessage().contains(NativeMethodRewriter.PREFIX + "mix(int, long, double, java.lang.Object)"),
                error.getMessage());
        assertEquals(List.of("nativeMethod(class Natives, mix)"), RecordingHooks.calls);
    }

    @Test
    void aSynchronizedNativeThatFailsReleasesItsMonitor() throws Exception {
        Object natives = new Rewritten(Natives.class).load(Natives.class).getConstructor().newInstance();
        Method locked = natives.getClass().getMethod("locked", int.class);
        Throwable thrown = assertThrows(InvocationTargetException.class, () -> locked.invoke(natives, 21)).getCause();
        assertEquals(UnsatisfiedLinkError.class, thrown.getClass());
        assertTrue(thrown.getMessage().contains(NativeMethodRewriter.PREFIX + "locked(int)"), thrown.getMessage());
        assertEquals(List.of("monitorEntered(natives, held)", "nativeMethod(class Natives, locked)",
                "monitorExit(natives, not held)"), RecordingHooks.calls);
        Locks.assertAnotherThreadCanLock(natives);
    }

    @Test
    void theWrapperLooksLikeTheNativeMethodToReflectionAndTheRenamedNativeIsHidden() throws Exception {
        Class<?> rewritten = new Rewritten(Natives.class).load(Natives.class);
        for (Method original : Natives.class.getDeclaredMethods()) {
            if (!Modifier.isNative(original.getModifiers())) {
                continue;
            }
            Method wrapper = rewritten.getDeclaredMethod(original.getName(), original.getParameterTypes());
            int expected = original.getModifiers() & ~Modifier.NATIVE & ~Modifier.SYNCHRONIZED;
            assertEquals(expected, wrapper.getModifiers(), original.getName());
            assertEquals(original.toGenericString().replace("native ", "").replace("synchronized ", ""),
                    wrapper.toGenericString());
            Method renamed = rewritten.getDeclaredMethod(NativeMethodRewriter.PREFIX + original.getName(),
                    original.getParameterTypes());
            assertEquals(Modifier.PRIVATE | Modifier.NATIVE | (original.getModifiers() & Modifier.STATIC),
                    renamed.getModifiers() & Modifier.methodModifiers(), renamed.toString());
            assertTrue(renamed.isSynthetic(), renamed.toString());
        }
        Method mix = rewritten.getDeclaredMethod("mix", int.class, long.class, double.class, Object.class);
        assertEquals("mix", mix.getAnnotation(Marker.class).value());
        assertEquals("a", ((Marker) mix.getParameterAnnotations()[0][0]).value());
        assertArrayEquals(new Class<?>[] {IOException.class}, mix.getExceptionTypes());
    }

    @ParameterizedTest
    @ValueSource(ints = {Opcodes.V1_4, Opcodes.V1_5, Opcodes.V1_6, Opcodes.V1_8, Opcodes.V11, Opcodes.V17})
    void classFilesOfOlderVersionsAreWrappedToo(int version) throws Throwable {
        Rewritten subject = new Rewritten(Natives.class, classFile -> Rewritten.withVersion(classFile, version),
                NativeMethodRewriterTest::linkStandIns);
        assertEquals("1099511627779 4.5 42", subject.call("run"));
        assertEquals(List.of("nativeMethod(class Natives, mix)", "nativeMethod(class Natives, scale)",
                "nativeMethod(class Natives, locked)"), RecordingHooks.callsOf("nativeMethod"));
    }
}
