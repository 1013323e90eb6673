package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.Opcodes;

class SynchronizedMethodRewriterTest {
    public static final class Counter {
        private int count;

        @Marker("outer")
        public synchronized int outer(@Marker("by") int by) throws IOException {
            count += by;
            return inner() * 10 + (Thread.holdsLock(this) ? 1 : 0);
        }

        protected synchronized int inner() {
            return count;
        }

        public static synchronized String statics(String s, long l, double d, int[] a) {
            return s + l + d + a.length + Thread.holdsLock(Counter.class);
        }

        public static synchronized <T extends Comparable<T>> T max(T a, T b) {
            return a.compareTo(b) >= 0 ? a : b;
        }

        public synchronized void fail() {
            throw new IllegalArgumentException("failed in body");
        }

        public static String run() throws IOException {
            return new Counter().outer(4) + " " + statics("s", 2L, 1.5, new int[3]) + " " + max("x", "y");
        }

        @Override
        public String toString() {
            return "counter";
        }
    }

    /** Uses nothing a class file of version 48 cannot have (class constants, invokedynamic, nestmates). */
    public static final class VersionAgnostic {
        private final Object lock = new Object();

        public static synchronized int twice(int x) {
            return x * 2;
        }

        public synchronized long plusOne(long a) {
            synchronized (lock) {
                return a + 1;
            }
        }

        public static String run() {
            return String.valueOf(twice(3) + new VersionAgnostic().plusOne(4L));
        }

        @Override
        public String toString() {
            return "agnostic";
        }
    }

    /** Synchronized methods of each shape the home-call decision tells apart. */
    public static final class Gate {
        private int arrived;

        /** Waits, touches only this object's fields: may run at the home. */
        public synchronized int await(int parties, long tag) throws InterruptedException {
            while (arrived < parties) {
                if (tag < 0) {
                    wait();
                }
                arrived++;
            }
            notifyAll();
            return arrived;
        }

        /** Waits, and rethrows an interrupt as java.lang's own exception: may run at the home. */
        public synchronized void awaitUnchecked() {
            try {
                while (arrived < 0) {
                    wait(10);
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Waits, and keeps a caught interrupt pending for its caller: may run at the home. */
        public synchronized void awaitKeepingInterrupt() {
            while (arrived < 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** Never waits: the monitor is better kept near its users. */
        public synchronized int count() {
            return arrived;
        }

        /** Waits, but asks which thread runs it. */
        public synchronized String awaitNamed() throws InterruptedException {
            while (arrived < 0) {
                wait();
            }
            return Thread.currentThread().getName();
        }

        /** Waits, but calls code of its own, which could reach anything. */
        public synchronized void awaitAndLog() throws InterruptedException {
            while (arrived < 0) {
                wait();
            }
            count();
        }

        /** Waits on another lock it takes. */
        public synchronized void awaitNested(Object other) throws InterruptedException {
            synchronized (other) {
                while (arrived < 0) {
                    other.wait();
                }
            }
        }

        public static String run() throws InterruptedException {
            Gate gate = new Gate();
            RecordingHooks.callHomeFor(gate, 42);
            int atHome = gate.await(3, 7L);
            RecordingHooks.callHomeFor(null, null);
            return atHome + " " + gate.await(2, 7L) + " " + gate.count();
        }

        @Override
        public String toString() {
            return "gate";
        }
    }

    @Test
    void aSynchronizedMethodThatWaitsRunsAtTheHomeWhenTheRuntimeSaysSo() throws Throwable {
        Rewritten subject = new Rewritten(Gate.class);
        assertEquals("42 2 2", subject.call("run"));
        String gate = Gate.class.getName();
        assertEquals(List.of("callHome(gate, " + gate + "#await(IJ)I, [3, 7])", "monitorEntered(gate, held)",
                "notifyAll(gate)", "monitorExit(gate, not held)",
                "monitorEntered(gate, held)", "monitorExit(gate, not held)"), // count(), which never runs at the home
                RecordingHooks.callsOf("callHome", "monitorEntered", "monitorExit", "notifyAll"));
        RewriteCounts counts = subject.counts(Gate.class);
        assertEquals(List.of(gate + "#await(IJ)I", gate + "#awaitUnchecked()V", gate + "#awaitKeepingInterrupt()V"),
                counts.homeCalls());
        assertEquals(3, counts.get(Kind.HOME_CALL));
    }

    @BeforeEach
    void reset() {
        RecordingHooks.reset();
    }

    @Test
    void synchronizedMethodsHoldTheirLockThroughTheHooksAndReenter() throws Throwable {
        Rewritten subject = new Rewritten(Counter.class);
        assertEquals("41 s21.53true y", subject.call("run"));
        assertEquals(List.of(
                "monitorEntered(counter, held)",
                "monitorEntered(counter, held)", "monitorExit(counter, held)", // a re-entry ended
                "monitorExit(counter, not held)",
                "monitorEntered(class Counter, held)", "monitorExit(class Counter, not held)",
                "monitorEntered(class Counter, held)", "monitorExit(class Counter, not held)"),
                RecordingHooks.calls);
        assertEquals(Map.of(Kind.SYNCHRONIZED_METHOD, 5, Kind.MONITOR_ENTER, 5, Kind.MONITOR_EXIT, 10),
                subject.concurrencyCounts(Counter.class));
    }

    @Test
    void wrapperLooksLikeTheOriginalMethodToReflectionAndTheBodyIsHidden() throws Exception {
        Class<?> rewritten = new Rewritten(Counter.class).load(Counter.class);
        for (Method original : Counter.class.getDeclaredMethods()) {
            Method wrapper = rewritten.getDeclaredMethod(original.getName(), original.getParameterTypes());
            assertEquals(original.getModifiers() & ~Modifier.SYNCHRONIZED, wrapper.getModifiers(), original.getName());
            assertEquals(original.toGenericString().replace("synchronized ", ""), wrapper.toGenericString());
            if (Modifier.isSynchronized(original.getModifiers())) {
                Method body = rewritten.getDeclaredMethod(SynchronizedMethodRewriter.BODY_PREFIX + original.getName(),
                        original.getParameterTypes());
                assertTrue(body.isSynthetic() && Modifier.isPrivate(body.getModifiers()), body.toString());
            }
        }
        Method outer = rewritten.getDeclaredMethod("outer", int.class);
        assertEquals("outer", outer.getAnnotation(Marker.class).value());
        assertEquals("by", ((Marker) outer.getParameterAnnotations()[0][0]).value());
        assertArrayEquals(new Class<?>[] {IOException.class}, outer.getExceptionTypes());
    }

    @Test
    void exceptionFromTheBodyPropagatesReleasesTheLockAndKeepsItsLine() throws Exception {
        Class<?> rewritten = new Rewritten(Counter.class).load(Counter.class);
        Object counter = rewritten.getConstructor().newInstance();
        Method fail = rewritten.getMethod("fail");
        Throwable thrown = assertThrows(java.lang.reflect.InvocationTargetException.class, () -> fail.invoke(counter)).getCause();
        assertEquals(IllegalArgumentException.class, thrown.getClass());
        assertEquals("failed in body", thrown.getMessage());
        assertEquals(List.of("monitorEntered(counter, held)", "monitorExit(counter, not held)"), RecordingHooks.calls);
        Locks.assertAnotherThreadCanLock(counter);

        StackTraceElement originalTop = assertThrows(IllegalArgumentException.class, () -> new Counter().fail()).getStackTrace()[0];
        StackTraceElement top = thrown.getStackTrace()[0];
        assertEquals(SynchronizedMethodRewriter.BODY_PREFIX + "fail", top.getMethodName());
        assertEquals(originalTop.getLineNumber(), top.getLineNumber());
        assertEquals("fail", thrown.getStackTrace()[1].getMethodName());
    }

    @Test
    void wrappersUnlockTheValueTheyLockedSoTheJitCanMatchThem() {
        byte[] rewritten = Rewritten.rewrite(Counter.class);
        assertEquals(5, MonitorBalance.monitorEnters(rewritten));
        assertEquals(List.of(), MonitorBalance.problems(rewritten));
    }

    @ParameterizedTest
    @ValueSource(ints = {Opcodes.V1_4, Opcodes.V1_5, Opcodes.V1_6, Opcodes.V1_8, Opcodes.V11, Opcodes.V17})
    void classFilesOfOlderVersionsAreRewrittenWithOrWithoutFrames(int version) throws Throwable {
        Rewritten subject = new Rewritten(VersionAgnostic.class, classFile -> Rewritten.withVersion(classFile, version));
        assertEquals("11", subject.call("run"));
        assertEquals(List.of("monitorEntered(class VersionAgnostic, held)", "monitorEntered(agnostic, held)",
                "monitorEntered(Object, held)"), RecordingHooks.callsOf("monitorEntered").stream()
                        .map(call -> call.replaceAll("java\\.lang\\.Object@\\p{XDigit}+", "Object")).toList());
        assertEquals(Map.of(Kind.SYNCHRONIZED_METHOD, 2, Kind.MONITOR_ENTER, 3, Kind.MONITOR_EXIT, 6),
                subject.concurrencyCounts(VersionAgnostic.class));
        assertEquals(List.of(), MonitorBalance.problems(
                Rewritten.rewrite(VersionAgnostic.class, Rewritten.withVersion(Rewritten.bytesOf(VersionAgnostic.class), version))));
    }
}
