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

    @Test
    void aWriteReportedTwiceBeforeAScanIsDueOnce() {
        WriteTracking<String> tracking = new WriteTracking<>();
        tracking.written("counter");
        tracking.written("counter");
        assertEquals(List.of("counter"), tracking.scan().due());
        assertTrue(tracking.scan().due().isEmpty(), "a scan takes the reports it found");
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
            WriteTracking<String> tracking = new WriteTracking<>();
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
                tracking.written("holder", holder);
            }
            writing.set(false);
            scanner.join();
            if (!tracking.scan().due().isEmpty()) {
                compared[0] = holder.value;
            }
            assertEquals(stores - 1, compared[0], "round " + round + ": the last store was never compared");
            assertFalse(tracking.scan().due().contains("holder"));
        }
    }
}
