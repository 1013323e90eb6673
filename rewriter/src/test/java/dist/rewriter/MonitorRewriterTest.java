package dist.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dist.rewriter.RewriteCounts.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
        assertEquals(List.of("monitorEnter(a)", "monitorEntered(a)", "monitorEnter(b)", "monitorEntered(b)",
                "monitorExit(b)", "monitorExit(a)"), RecordingHooks.calls);
        // javac exits each block twice: on the normal path and in its catch-any handler.
        assertEquals(Map.of(Kind.MONITOR_ENTER, 2, Kind.MONITOR_EXIT, 4), subject.counts(NestedBlocks.class).asMap());
    }

    @Test
    void blockLeftByAnExceptionReleasesTheMonitor() throws Throwable {
        Rewritten subject = new Rewritten(LeftByException.class);
        assertEquals("thrown inside false", subject.call("run"));
        assertEquals(List.of("monitorEnter(lock)", "monitorEntered(lock)", "monitorExit(lock)"), RecordingHooks.calls);
        Locks.assertAnotherThreadCanLock(subject.load(LeftByException.class).getField("LOCK").get(null));
    }

    @Test
    void standInMonitorsAreTakenAndReleasedInsteadOfTheLocks() throws Throwable {
        RecordingHooks.standIns = true;
        Rewritten subject = new Rewritten(NestedBlocks.class);
        // The JVM monitors taken are the stand-ins', so the locks themselves are never held.
        assertEquals("false false false false", subject.call("run"));
        assertEquals(List.of("monitorEnter(a)", "monitorEntered(standIn:a)", "monitorEnter(b)", "monitorEntered(standIn:b)",
                "monitorExit(b)", "monitorExit(a)"), RecordingHooks.calls);
        assertEquals(2, RecordingHooks.standInOf.size());
        for (Object standIn : RecordingHooks.standInOf.values()) {
            assertFalse(Thread.holdsLock(standIn));
            Locks.assertAnotherThreadCanLock(standIn);
        }
    }

    @Test
    void classWithoutMonitorsIsLeftUnchanged() {
        ConcurrencyRewriter.Result result = Rewritten.REWRITER.rewrite(Rewritten.bytesOf(Named.class));
        assertNull(result.bytes());
        assertFalse(result.counts().changed());
        assertEquals(Map.of(), result.counts().asMap());
    }
}
