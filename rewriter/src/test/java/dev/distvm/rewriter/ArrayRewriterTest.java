package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ArrayRewriterTest {
    /** Input: a store of every element type, and arrays handed to JDK code in the ways that matter. */
    public static final class Stores {
        public static String storeEach() {
            int[] ints = new int[2];
            long[] longs = new long[2];
            float[] floats = new float[2];
            double[] doubles = new double[2];
            char[] chars = new char[2];
            short[] shorts = new short[2];
            byte[] bytes = new byte[2];
            boolean[] flags = new boolean[2];
            String[] strings = new String[2];
            ints[1] = 7;
            longs[1] = 7L;
            floats[1] = 7f;
            doubles[1] = 7d;
            chars[1] = 'x';
            shorts[1] = (short) 70000;
            bytes[1] = (byte) 300;
            flags[1] = true;
            strings[1] = "s";
            return ints[1] + " " + longs[1] + " " + floats[1] + " " + doubles[1] + " " + chars[1] + " " + shorts[1]
                    + " " + bytes[1] + " " + flags[1] + " " + strings[1];
        }

        public static void storeOutOfBounds() {
            int[] ints = new int[1];
            ints[1] = 1;
        }

        public static void storeWrongType() {
            Object[] strings = new String[1];
            strings[0] = Integer.valueOf(1);
        }

        public static void storeIntoNull(boolean wide) {
            long[] longs = wide ? null : new long[1];
            double[] doubles = null;
            longs[0] = 1L;
            doubles[0] = 2d;
        }

        /** A field store stays the program's too (FieldAccessRewriter): its failure must look the same. */
        public static void storeIntoNullObject(boolean wide) {
            Cell cell = wide ? null : new Cell();
            Cell other = null;
            cell.wide = 1L;
            other.value = "x";
        }

        public static final class Cell {
            public Object value;
            public long wide;
        }

        public static int[] handToJdk() {
            int[] filled = new int[3];
            Arrays.fill(filled, 4);
            int[] copied = new int[3];
            System.arraycopy(filled, 0, copied, 0, 3);
            List<String> list = new ArrayList<>(List.of("a"));
            String[] out = list.toArray(new String[0]);
            return new int[] {filled[2], copied[2], out.length};
        }

        public static void copyThatThrows() {
            System.arraycopy(new int[1], 0, new int[1], 0, 2);
        }

        public static int aliases() {
            byte[] wrapped = new byte[4];
            ByteBuffer.wrap(wrapped).put((byte) 1);
            Integer[] viewed = {3, 1, 2};
            Arrays.asList(viewed).sort(null);
            ByteBuffer buffer = ByteBuffer.allocate(2);
            return wrapped[0] + viewed[0] + buffer.array().length;
        }
    }

    /** Input: a stream whose read is the JDK's, called through super, and a constructor handed an array. */
    public static final class Stream extends java.io.ByteArrayInputStream {
        public Stream() {
            super(new byte[] {5, 6, 7});
        }

        @Override
        public synchronized int read(byte[] into, int from, int count) {
            return super.read(into, from, count);
        }

        public static String readThrough() {
            byte[] into = new byte[3];
            int read = new Stream().read(into, 0, 3);
            return read + " " + into[2];
        }
    }

    @BeforeEach
    void reset() {
        RecordingHooks.reset();
    }

    @Test
    void everyArrayStoreGoesThroughItsHookAndStoresAsTheInstructionWould() throws Throwable {
        Rewritten subject = new Rewritten(Stores.class);
        assertEquals("7 7 7.0 7.0 x 4464 44 true s", subject.call("storeEach"));
        assertEquals(List.of("store int[1]", "store long[1]", "store float[1]", "store double[1]", "store char[1]",
                "store short[1]", "store byte[1]", "store boolean[1]", "store String[1]"), RecordingHooks.arrayCalls);
        // storeEach's 9, one in each of the two failing stores, storeIntoNull's 2, and the initializers {...} of handToJdk and aliases: 3 + 3
        assertEquals(19, subject.counts(Stores.class).get(Kind.ARRAY_STORE));
    }

    @Test
    void aStoreThatFailsFailsAsTheInstructionWouldInTheProgramsFrameAndMarksNothing() throws Throwable {
        for (Rewritten subject : List.of(new Rewritten(Stores.class), Rewritten.onWorker(Stores.class))) {
            RecordingHooks.reset();
            for (String method : List.of("storeOutOfBounds", "storeWrongType")) {
                assertThrownAsByTheInstruction(thrownBy(subject, method), () -> Stores.class.getMethod(method).invoke(null));
            }
            for (boolean wide : new boolean[] {true, false}) {
                for (String method : List.of("storeIntoNull", "storeIntoNullObject")) {
                    assertThrownAsByTheInstruction(thrownBy(subject, method, wide),
                            () -> Stores.class.getMethod(method, boolean.class).invoke(null, wide));
                }
            }
            assertEquals(List.of("store long[0]"), RecordingHooks.arrayCalls); // only the store that succeeded
        }
    }

    /** The same class, message (the JVM's helpful one for a null array: which local was null) and frame on top. */
    private static void assertThrownAsByTheInstruction(Throwable rewritten, java.util.concurrent.Callable<?> original) {
        Throwable expected = assertThrows(java.lang.reflect.InvocationTargetException.class, original::call).getCause();
        assertEquals(expected.getClass(), rewritten.getClass());
        assertEquals(expected.getMessage(), rewritten.getMessage());
        StackTraceElement top = rewritten.getStackTrace()[0];
        StackTraceElement expectedTop = expected.getStackTrace()[0];
        assertEquals(expectedTop.getMethodName() + ":" + expectedTop.getLineNumber(), top.getMethodName() + ":" + top.getLineNumber(),
                rewritten.toString());
    }

    @Test
    void arraysHandedToJdkCodeAreReportedAfterTheCallEvenWhenItThrows() throws Throwable {
        Rewritten subject = new Rewritten(Stores.class);
        assertArrayEquals(new int[] {4, 4, 1}, (int[]) subject.call("handToJdk"));
        assertEquals(List.of("passed int[]", "passed int[]", "passed String[]"),
                RecordingHooks.arrayCalls.stream().filter(call -> !call.startsWith("store")).toList());
        RecordingHooks.reset();
        assertEquals(ArrayIndexOutOfBoundsException.class, thrownBy(subject, "copyThatThrows").getClass());
        assertEquals(List.of("passed int[]"), RecordingHooks.arrayCalls);
    }

    @Test
    void arraysThatJdkCodeKeepsAreReportedAsAliased() throws Throwable {
        Rewritten subject = new Rewritten(Stores.class);
        assertEquals(1 + 1 + 2, subject.call("aliases"));
        assertEquals(List.of("aliased byte[]", "aliased Integer[]", "aliased byte[]"),
                RecordingHooks.arrayCalls.stream().filter(call -> !call.startsWith("store")).toList());
        // fill, arraycopy, toArray; the arraycopy that throws; wrap, asList, array()
        assertEquals(7, subject.counts(Stores.class).get(Kind.ARRAY_PASSED));
    }

    @Test
    void aSuperCallThatHandsAnArrayToJdkCodeReportsItAndConstructorsStayDirect() throws Throwable {
        Rewritten subject = new Rewritten(Stream.class);
        assertEquals("3 7", subject.call("readThrough"));
        assertEquals(List.of("passed byte[]"), RecordingHooks.arrayCalls.stream().filter(call -> !call.startsWith("store")).toList(),
                "the super call inside read; the call of read itself runs Stream's own, rewritten read");
        assertEquals(1, subject.counts(Stream.class).get(Kind.DIRECT_ARRAY_PASSED), "super(new byte[] {...})");
    }

    private static Throwable thrownBy(Rewritten subject, String method, Object... arguments) {
        return assertThrows(Throwable.class, () -> subject.call(method, arguments));
    }
}
