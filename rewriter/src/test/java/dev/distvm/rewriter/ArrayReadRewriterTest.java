package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.io.ByteArrayInputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.Opcodes;

class ArrayReadRewriterTest {
    /** Input: a read of every element type, a read whose value the hook faults in, and reads that fail. */
    public static final class Reads {
        public static String readEach() {
            int[] ints = {0, 1};
            long[] longs = {0, 2};
            float[] floats = {0, 3};
            double[] doubles = {0, 4};
            char[] chars = {'0', '5'};
            short[] shorts = {0, 6};
            byte[] bytes = {0, 7};
            boolean[] flags = {false, true};
            String[] strings = {"", "s"};
            return ints[1] + " " + longs[1] + " " + floats[1] + " " + doubles[1] + " " + chars[1] + " " + shorts[1]
                    + " " + bytes[1] + " " + flags[1] + " " + strings[1];
        }

        public static int sum(int[] ints) {
            return ints[0] + ints[2];
        }

        public static int readAt(int[] ints, int index) {
            return ints[index];
        }
    }

    /** Input: arrays handed to JDK code in each way a call can hand them. */
    public static final class Passing {
        public static int[] fill() {
            int[] ints = new int[3];
            Arrays.fill(ints, 4);
            return ints;
        }

        public static int[] copy(int[] from) {
            int[] to = new int[4];
            System.arraycopy(from, 0, to, 1, 3);
            return to;
        }

        public static String string(char[] chars) {
            return new String(chars);
        }

        public static String decode(byte[] bytes) {
            return new String(bytes, 1, 2, StandardCharsets.UTF_8);
        }

        public static String longs(long[] longs) {
            return Arrays.toString(longs);
        }

        public static String valueOf(char[] chars) {
            return String.valueOf(chars);
        }

        public static int[] cloned(int[] ints) {
            return ints.clone();
        }

        public static boolean deepEquals(int[] a, int[] b) {
            return Objects.deepEquals(a, b);
        }

        public static int[] inInterface() {
            return Filler.filled(2);
        }

        public static byte[] stream(byte[] bytes) {
            MyStream stream = new MyStream(bytes);
            byte[] into = new byte[2];
            stream.read(into, 0, 1);
            stream.readSecond(into);
            return into;
        }

        /**
         * Wide values above an array, spilled with it, and below one, left on the stack; {@code fillAfter}
         * is {@code Arrays.fill(long[], long)} taking the long first.
         */
        public static boolean mixed(long[] a, long[] b, double[] d, MethodHandle fillAfter) throws Throwable {
            Arrays.fill(d, 1, 3, 2.5);
            Array.setLong(a, 1, 9L);
            fillAfter.invokeExact(7L, b);
            return Arrays.equals(a, 0, 2, b, 0, 2);
        }

        public interface Filler {
            static int[] filled(int length) {
                int[] ints = new int[length];
                Arrays.fill(ints, 1);
                return ints;
            }
        }

        /** Its constructor is rewritten code, its {@code read} the JDK's. */
        public static final class MyStream extends ByteArrayInputStream {
            public MyStream(byte[] bytes) {
                super(bytes);
            }

            void readSecond(byte[] into) {
                super.read(into, 1, 1);
            }
        }
    }

    /** Input: reads and JDK calls inside a synchronized block inside a try/catch. */
    public static final class Guarded {
        public static final Named LOCK = new Named("lock");

        public static String run(int[] ints) {
            try {
                synchronized (LOCK) {
                    int first = ints[0];
                    Arrays.fill(ints, first + 1);
                    return ints[ints.length] + "";
                }
            } catch (ArrayIndexOutOfBoundsException e) {
                return Arrays.toString(ints) + " " + Thread.holdsLock(LOCK);
            }
        }
    }

    /** Input: no lambdas, no string concatenation, so that it runs as a class file of any version. */
    public static final class Versioned {
        public static int run(int[] ints) {
            int[] copy = ints.clone();
            System.arraycopy(ints, 1, copy, 0, 1);
            return copy[0] * 10 + copy[1];
        }
    }

    @BeforeEach
    void reset() {
        RecordingHooks.reset();
    }

    @Test
    void everyPrimitiveElementReadCallsTheHookWithItsIndexAndReferenceReadsDoNot() throws Throwable {
        Rewritten subject = Rewritten.onWorker(Reads.class);
        assertEquals("1 2 3.0 4.0 5 6 7 true s", subject.call("readEach"));
        // The array initializers' stores fault their elements in first (a write needs the chunk too), then the reads.
        List<String> expected = new java.util.ArrayList<>();
        for (String type : List.of("int", "long", "float", "double", "char", "short", "byte", "boolean")) {
            expected.addAll(List.of("read " + type + "[] 0", "read " + type + "[] 1"));
        }
        expected.addAll(List.of("read int[] 1", "read long[] 1", "read float[] 1", "read double[] 1", "read char[] 1",
                "read short[] 1", "read byte[] 1", "read boolean[] 1"));
        assertEquals(expected, RecordingHooks.calls);
        // readEach's 8, sum's 2, readAt's 1
        assertEquals(11, subject.counts(Reads.class).get(Kind.ARRAY_READ));
        assertEquals(0, subject.counts(Reads.class).get(Kind.ARRAY_PASSING));
    }

    @Test
    void theHookRunsBeforeTheLoadSoTheLoadReadsTheFaultedInElement() throws Throwable {
        Rewritten subject = Rewritten.onWorker(Reads.class);
        int[] onWorker = new int[3];
        RecordingHooks.absentUntilAskedFor(onWorker, new int[] {10, 20, 30});
        assertEquals(40, subject.call("sum", onWorker));
        assertEquals(List.of("read int[] 0", "read int[] 2"), RecordingHooks.calls);
        assertArrayEquals(new int[] {10, 0, 30}, onWorker, "only the elements read were faulted in");
    }

    @Test
    void aReadThatFailsFailsInTheApplicationsFrameAfterTheHookReturnedQuietly() throws Throwable {
        Rewritten subject = Rewritten.onWorker(Reads.class);
        Throwable nullArray = assertThrows(NullPointerException.class, () -> subject.call("readAt", null, 0));
        Throwable outOfBounds = assertThrows(ArrayIndexOutOfBoundsException.class, () -> subject.call("readAt", new int[2], 5));
        for (Throwable thrown : List.of(nullArray, outOfBounds)) {
            assertEquals(Reads.class.getName(), thrown.getStackTrace()[0].getClassName());
            assertEquals("readAt", thrown.getStackTrace()[0].getMethodName());
        }
        assertEquals(List.of("read null 0", "read int[] 5"), RecordingHooks.calls);
    }

    @Test
    void arraysHandedToJdkCodeAreAskedForBeforeTheCallInArgumentOrder() throws Throwable {
        Rewritten subject = Rewritten.onWorker(Passing.class);
        assertPassing(new int[] {4, 4, 4}, List.of("passing int[] [0, 0, 0]"), subject, "fill");

        int[] from = new int[3];
        RecordingHooks.absentUntilAskedFor(from, new int[] {1, 2, 3});
        // The source's elements arrived before the copy read them.
        assertPassing(new int[] {0, 1, 2, 3}, List.of("passing int[] [0, 0, 0]", "passing int[] [0, 0, 0, 0]"), subject,
                "copy", from);

        assertPassing("hi", List.of("passing char[] [h, i]"), subject, "string", (Object) "hi".toCharArray());
        assertPassing("hi", List.of("passing byte[] [120, 104, 105]"), subject, "decode", (Object) "xhi".getBytes(StandardCharsets.UTF_8));
        assertPassing("[1, 2]", List.of("passing long[] [1, 2]"), subject, "longs", (Object) new long[] {1, 2});
        assertPassing("ok", List.of("passing char[] [o, k]"), subject, "valueOf", (Object) "ok".toCharArray());
        assertPassing(new int[] {7, 8}, List.of("passing int[] [7, 8]"), subject, "cloned", (Object) new int[] {7, 8});
        assertPassing(true, List.of("passing int[] [1]", "passing int[] [1]"), subject, "deepEquals", new int[] {1}, new int[] {1});
        assertPassing(new int[] {1, 1}, List.of("passing int[] [0, 0]"), subject, "inInterface");
        // super(bytes) in MyStream's constructor, read inherited from the JDK's class, super.read; not new MyStream(bytes)
        assertPassing(new byte[] {5, 6}, List.of("passing byte[] [5, 6, 7]", "passing byte[] [0, 0]", "passing byte[] [5, 0]"),
                subject, "stream", (Object) new byte[] {5, 6, 7});

        // fill, arraycopy, two new Strings, toString, valueOf, clone, deepEquals, read and mixed's 4
        assertEquals(13, subject.counts(Passing.class).get(Kind.ARRAY_PASSING));
        assertEquals(2, subject.counts(Passing.MyStream.class).get(Kind.ARRAY_PASSING), "its super calls");
        assertEquals(1, subject.counts(Passing.Filler.class).get(Kind.ARRAY_PASSING));
    }

    @Test
    void argumentsOfEveryWidthAreHandedOnAsTheyWere() throws Throwable {
        Rewritten subject = Rewritten.onWorker(Passing.class);
        long[] a = new long[2];
        long[] b = new long[3];
        double[] d = new double[3];
        MethodHandle fill = MethodHandles.lookup().findStatic(Arrays.class, "fill",
                MethodType.methodType(void.class, long[].class, long.class));
        MethodHandle fillAfter = MethodHandles.permuteArguments(fill, MethodType.methodType(void.class, long.class, long[].class), 1, 0);
        assertEquals(false, subject.call("mixed", a, b, d, fillAfter));
        assertArrayEquals(new long[] {0, 9}, a);
        assertArrayEquals(new long[] {7, 7, 7}, b);
        assertArrayEquals(new double[] {0, 2.5, 2.5}, d);
        assertEquals(List.of("passing double[] [0.0, 0.0, 0.0]", "passing long[] [0, 0]", "passing long[] [0, 0, 0]",
                "passing long[] [0, 9]", "passing long[] [7, 7, 7]"), RecordingHooks.calls);
    }

    @Test
    void theHomesPipelineAddsNoReadHooks() throws Throwable {
        for (Class<?> subject : List.of(Reads.class, Passing.class)) {
            RewriteCounts counts = new Rewritten(subject).counts(subject);
            assertEquals(0, counts.get(Kind.ARRAY_READ), subject.getName());
            assertEquals(0, counts.get(Kind.ARRAY_PASSING), subject.getName());
        }
        assertEquals("1 2 3.0 4.0 5 6 7 true s", new Rewritten(Reads.class).call("readEach"));
        assertEquals(List.of(), RecordingHooks.calls);
    }

    @Test
    void hooksInsideTryAndSynchronizedBlocksKeepFramesAndMonitorsBalanced() throws Throwable {
        byte[] rewritten = Rewritten.rewriteOnWorker(Guarded.class);
        Rewritten.assertVerifies(rewritten);
        assertTrue(MonitorBalance.monitorEnters(rewritten) > 0);
        assertEquals(List.of(), MonitorBalance.problems(rewritten));

        Rewritten subject = Rewritten.onWorker(Guarded.class);
        assertEquals("[6, 6] false", subject.call("run", (Object) new int[] {5, 0}));
        assertEquals(List.of("monitorEntered(lock, held)", "read int[] 0", "passing int[] [5, 0]", "read int[] 2",
                "monitorExit(lock, not held)", "passing int[] [6, 6]"), RecordingHooks.calls);
        Locks.assertAnotherThreadCanLock(subject.load(Guarded.class).getField("LOCK").get(null));
    }

    @ParameterizedTest
    @ValueSource(ints = {Opcodes.V1_5, Opcodes.V1_6, Opcodes.V1_8, Opcodes.V17})
    void classFilesOfOlderVersionsAreRewrittenWithOrWithoutFrames(int version) throws Throwable {
        Rewritten subject = Rewritten.onWorker(Versioned.class, classFile -> Rewritten.withVersion(classFile, version));
        assertEquals(22, subject.call("run", (Object) new int[] {1, 2}));
        assertEquals(List.of("passing int[] [1, 2]", "passing int[] [1, 2]", "passing int[] [1, 2]", "read int[] 0",
                "read int[] 1"), RecordingHooks.calls);
    }

    private static void assertPassing(Object expected, List<String> calls, Rewritten subject, String method, Object... arguments)
            throws Throwable {
        RecordingHooks.calls.clear();
        assertEquals(Arrays.deepToString(new Object[] {expected}), Arrays.deepToString(new Object[] {subject.call(method, arguments)}),
                method);
        assertEquals(calls, RecordingHooks.calls, method);
    }
}
