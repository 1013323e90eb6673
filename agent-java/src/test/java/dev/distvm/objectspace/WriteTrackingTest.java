package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class WriteTrackingTest {
    /** A holder with a plain field, as a program's object is. */
    private static final class Holder {
        long value;
    }

    /** A thing that marks its own report, as a worker's copy record does. */
    private static final class MarkedThing implements WriteTracking.Marked {
        private volatile boolean reported;

        @Override public boolean writeReported() { return reported; }

        @Override public void writeReported(boolean value) { reported = value; }
    }

    @Test
    void aWriteReportedTwiceBeforeAScanIsDueOnce() {
        WriteTracking<String> tracking = new WriteTracking<>();
        tracking.written("counter");
        tracking.written("counter");
        assertEquals(List.of("counter"), tracking.scan().due());
        assertTrue(tracking.scan().due().isEmpty(), "a scan takes the reports it found");
    }

    @Test
    void aMarkedThingIsReportedOnceUntilAScanTakesIt() {
        WriteTracking<Object> tracking = new WriteTracking<>();
        MarkedThing copy = new MarkedThing();
        tracking.written(copy);
        tracking.written(copy);
        assertEquals(List.of(copy), tracking.scan().due());
        assertFalse(copy.writeReported(), "the scan that took the report clears the mark");
        assertTrue(tracking.scan().due().isEmpty());
        tracking.written(copy);
        assertEquals(List.of(copy), tracking.scan().due());
    }

    @Test
    void aWriteReportedAfterAScanTookTheLastReportIsDueAgain() {
        WriteTracking<String> tracking = new WriteTracking<>();
        tracking.written("counter");
        assertEquals(List.of("counter"), tracking.scan().due());
        tracking.written("counter");
        assertEquals(List.of("counter"), tracking.scan().due());
    }

    /**
     * A writer that reports every store while scans take the reports: the last value it stored must
     * be what some scan that took a report of it compared, or the write would never travel.
     */
    @Test
    void theLastWriteIsSeenByAScanThatTookItsReport() throws InterruptedException {
        for (int round = 0; round < 20; round++) {
            lastWriteIsCompared("holder", "round " + round);
        }
    }

    @Test
    void theLastWriteToAMarkedThingIsSeenByAScanThatTookItsReport() throws InterruptedException {
        for (int round = 0; round < 20; round++) {
            lastWriteIsCompared(new MarkedThing(), "round " + round);
        }
    }

    private static void lastWriteIsCompared(Object thing, String round) throws InterruptedException {
        WriteTracking<Object> tracking = new WriteTracking<>();
        Holder holder = new Holder();
        long stores = 200_000;
        AtomicBoolean writing = new AtomicBoolean(true);
        long[] compared = {-1};
        Thread scanner = new Thread(() -> {
            while (writing.get()) {
                if (!tracking.scan().due().isEmpty()) {
                    compared[0] = holder.value;
                }
            }
        });
        scanner.start();
        for (long i = 0; i < stores; i++) {
            holder.value = i;
            tracking.written(thing, holder);
        }
        writing.set(false);
        scanner.join();
        if (!tracking.scan().due().isEmpty()) {
            compared[0] = holder.value;
        }
        assertEquals(stores - 1, compared[0], round + ": the last store was never compared");
        assertFalse(tracking.scan().due().contains(thing));
    }

    @Test
    void aScanReadsObjectsFirstThenArraysByLengthEqualLengthsInTheOrderTheyWereShared() {
        WriteTracking<String> tracking = new WriteTracking<>();
        tracking.shared("large", 5000);
        tracking.shared("data", 1000);
        tracking.shared("flag", 1);
        tracking.shared("object", -1);
        tracking.shared("otherFlag", 1);
        tracking.written("statics");
        List<String> inOrder = List.of("statics", "object", "flag", "otherFlag", "data", "large");
        assertEquals(inOrder, tracking.scan().due(), "all shared in the last moments: every one due");
        assertEquals(List.of("flag", "otherFlag", "data", "large"), settledScan(tracking, true).due(), "every array");
        tracking.written("object");
        assertEquals(List.of("object"), tracking.scan(false).due(), "no array unless asked");
        tracking.forget("data");
        tracking.shared("newFlag", 1);
        assertEquals(List.of("flag", "otherFlag", "newFlag", "large"), settledScan(tracking, true).due());
    }

    /** A scan once nothing was shared in the last moments (a millisecond). */
    private static WriteTracking.Scan<String> settledScan(WriteTracking<String> tracking, boolean withArrays) {
        long settled = System.nanoTime() + 2_000_000;
        WriteTracking.Scan<String> scan;
        do {
            scan = tracking.scan(withArrays);
        } while (!scan.whole().isEmpty() || System.nanoTime() < settled);
        return scan;
    }
}
