package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnreleasedWritesTest {
    @Test
    void aWriteIsUnreleasedUntilTheNextReleaseBegins() {
        UnreleasedWrites writes = new UnreleasedWrites();
        assertFalse(writes.any());
        writes.noted();
        writes.noted();
        assertTrue(writes.any());
        writes.releasing();
        assertFalse(writes.any(), "a release took them");
        writes.noted();
        assertTrue(writes.any(), "a write after the release began is for the next one");
    }

    @Test
    void writesThatReportNothingKeepItSetThroughEveryRelease() {
        UnreleasedWrites writes = new UnreleasedWrites();
        writes.unknowable();
        assertTrue(writes.any());
        writes.releasing();
        assertTrue(writes.any(), "an aliased array may have been written since");
    }
}
