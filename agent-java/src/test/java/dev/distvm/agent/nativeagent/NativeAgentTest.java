package dev.distvm.agent.nativeagent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.StackWalker.Option;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs in a JVM started with {@code -agentpath:.../build/libdistjvmti.so}. Slot layouts come from
 * static helpers whose locals are their parameters, which javac numbers from slot 0 in order
 * (long and double taking two).
 */
class NativeAgentTest {

    @BeforeAll
    static void agentIsLoaded() {
        assertTrue(
                NativeAgent.isLoaded(),
                "libdistjvmti.so is not loaded: run the tests with -agentpath:<repo>/build/libdistjvmti.so");
    }

    @Test
    void startupAgentHasEveryWantedCapabilityAndLocalsWhenAskedFor() {
        List<String> all = new ArrayList<>(List.of(NativeAgent.LOCALS_CAPABILITY)); // the tests load it =locals
        all.addAll(NativeAgent.WANTED_CAPABILITIES);
        assertEquals(all, List.of(NativeAgent.capabilities()));
        assertEquals(List.of(), NativeAgent.missingCapabilities());
    }

    @Test
    void frameZeroIsTheCallerAtTheLineOfTheCall() {
        // Both calls on one line, so the line number is known without hard-coding it.
        Frame[] frames = NativeAgent.currentFrames(0); int line = new Throwable().getStackTrace()[0].getLineNumber();

        Frame top = frames[0];
        assertEquals(NativeAgentTest.class.getName(), top.className());
        assertEquals("frameZeroIsTheCallerAtTheLineOfTheCall", top.methodName());
        assertEquals("()V", top.descriptor());
        assertEquals(line, top.lineNumber());
        assertTrue(top.bci() > 0, "bci " + top.bci());
    }

    @Test
    void callerFramesMatchStackWalkerShowingEverything() {
        Frame[] frames = NativeAgent.currentFrames(0);
        List<StackWalker.StackFrame> expected =
                StackWalker.getInstance(
                                // newer JDKs give descriptors only with class references
                                Set.of(
                                        Option.SHOW_HIDDEN_FRAMES,
                                        Option.SHOW_REFLECT_FRAMES,
                                        Option.RETAIN_CLASS_REFERENCE))
                        .walk(s -> s.toList());

        assertEquals(expected.size(), frames.length);
        // Frame 0 is this method at two different calls; its callers are identical.
        for (int i = 1; i < frames.length; i++) {
            StackWalker.StackFrame want = expected.get(i);
            Frame got = frames[i];
            String where = "frame " + i + ": " + got;
            assertEquals(want.getClassName(), got.className(), where);
            assertEquals(want.getMethodName(), got.methodName(), where);
            assertEquals(want.getDescriptor(), got.descriptor(), where);
            if (want.isNativeMethod()) {
                assertEquals(-1, got.bci(), where);
                assertEquals(-1, got.lineNumber(), where);
            } else {
                assertEquals(want.getByteCodeIndex(), got.bci(), where);
                assertEquals(Math.max(want.getLineNumber(), -1), got.lineNumber(), where);
            }
        }
    }

    @Test
    void skipStartsThatManyFramesAboveTheCaller() {
        Frame[] fromHelper = framesFromHelper(1);
        assertEquals("skipStartsThatManyFramesAboveTheCaller", fromHelper[0].methodName());
        assertEquals(NativeAgentTest.class.getName(), fromHelper[0].className());

        Frame[] all = framesFromHelper(0);
        assertEquals("framesFromHelper", all[0].methodName());
        assertEquals("(I)[Ldev/distvm/agent/nativeagent/Frame;", all[0].descriptor());
        assertEquals(all.length - 1, fromHelper.length);
        assertEquals(
                Arrays.asList(all).subList(2, all.length), Arrays.asList(fromHelper).subList(1, fromHelper.length));
    }

    @Test
    void skipPastTheBottomIsEmpty() {
        assertEquals(0, NativeAgent.currentFrames(100_000).length);
        assertEquals(0, NativeAgent.currentFrames(Integer.MAX_VALUE).length);
    }

    @Test
    void negativeSkipIsRejected() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NativeAgent.currentFrames(-1));
        assertEquals("skip must not be negative, was -1", e.getMessage());
    }

    @Test
    void readsLocalsOfEachTypeExactly() {
        Object marker = new Object();
        Object[] values = mixed(42, 0x1234_5678_9ABC_DEF0L, -2.5e-300, marker, true);

        assertEquals(7, values.length);
        assertEquals(Integer.valueOf(42), values[0]);
        assertEquals(Long.valueOf(0x1234_5678_9ABC_DEF0L), values[1]);
        assertEquals(null, values[2]);
        assertEquals(Double.valueOf(-2.5e-300), values[3]);
        assertEquals(null, values[4]);
        assertSame(marker, values[5]);
        assertEquals(Integer.valueOf(1), values[6]);
    }

    @Test
    void readsFloatAndTheNarrowIntTypesAsInt() {
        Object[] values = narrow(Float.MIN_VALUE, (byte) -7, 'x', (short) 30_000, false, null);
        assertArrayEquals(new Object[] {Float.MIN_VALUE, -7, (int) 'x', 30_000, 0, null}, values);
    }

    @Test
    void depthOneReadsTheCallersLocals() {
        Object[] values = outer(-17, "outer's string");
        assertArrayEquals(new Object[] {-17, "outer's string"}, values);
    }

    @Test
    void invalidSlotTypeCharIsRejected() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NativeAgent.currentLocals(0, "LZ"));
        assertEquals("slot 1: invalid slot type 'Z' (expected one of I J F D L -)", e.getMessage());
    }

    @Test
    void longWithoutItsSecondSlotIsRejected() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NativeAgent.currentLocals(0, "JL"));
        assertEquals("slot 0: 'J' takes two slots, so slot 1 must be '-'", e.getMessage());
    }

    @Test
    void wrongTypeNamesTheJvmtiError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> intReadAsObject(5));
        assertEquals("reading slot 0 as 'L' at depth 0: JVMTI_ERROR_TYPE_MISMATCH", e.getMessage());
    }

    @Test
    void slotPastTheFrameNamesTheJvmtiError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> intAndOneSlotMore(5));
        assertEquals("reading slot 1 as 'I' at depth 0: JVMTI_ERROR_INVALID_SLOT", e.getMessage());
    }

    @Test
    void depthPastTheBottomNamesTheJvmtiError() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NativeAgent.currentLocals(100_000, "I"));
        assertEquals("reading slot 0 as 'I' at depth 100000: JVMTI_ERROR_NO_MORE_FRAMES", e.getMessage());
    }

    @Test
    void badArgumentsAreRejectedBeforeAnyRead() {
        assertThrows(IllegalArgumentException.class, () -> NativeAgent.currentLocals(-1, "I"));
        assertThrows(NullPointerException.class, () -> NativeAgent.currentLocals(0, null));
        assertEquals(0, NativeAgent.currentLocals(0, "").length);
    }

    private static Frame[] framesFromHelper(int skip) {
        return NativeAgent.currentFrames(skip);
    }

    // slots: i 0, l 1-2, d 3-4, o 5, b 6
    private static Object[] mixed(int i, long l, double d, Object o, boolean b) {
        return NativeAgent.currentLocals(0, "IJ-D-LI");
    }

    // slots: f 0, b 1, c 2, s 3, z 4, o 5
    private static Object[] narrow(float f, byte b, char c, short s, boolean z, Object o) {
        return NativeAgent.currentLocals(0, "FIIIIL");
    }

    // slots: a 0, s 1
    private static Object[] outer(int a, String s) {
        return inner();
    }

    private static Object[] inner() {
        return NativeAgent.currentLocals(1, "IL");
    }

    // slots: i 0
    private static Object[] intReadAsObject(int i) {
        return NativeAgent.currentLocals(0, "L");
    }

    // slots: i 0, and no more
    private static Object[] intAndOneSlotMore(int i) {
        return NativeAgent.currentLocals(0, "-I");
    }
}
