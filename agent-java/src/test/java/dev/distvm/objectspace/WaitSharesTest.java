package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WaitSharesTest {
    private final WaitShares shares = new WaitShares();
    private final Object barrier = new Object();
    private final Object buffer = new Object();

    @Test
    void aCopyWhoseCallsMostlyWaitIsCalledAtTheHomeAndOneWhoseCallsSeldomWaitIsNot() {
        assertFalse(shares.mostlyWait(barrier), "nothing counted yet");
        for (int call = 0; call < 3; call++) {
            shares.called(barrier, false);
            shares.waited(barrier); // through the lease, as a barrier's parties but the last do
        }
        assertFalse(shares.mostlyWait(barrier), "three calls are too few to decide");
        shares.called(barrier, false);
        assertTrue(shares.mostlyWait(barrier));
        for (int call = 0; call < 40; call++) {
            shares.called(buffer, call % 10 == 0);
        }
        assertFalse(shares.mostlyWait(buffer));
    }

    @Test
    void theShareFollowsWhatTheProgramDoesNow() {
        for (int call = 0; call < 100; call++) {
            shares.called(barrier, true);
        }
        assertTrue(shares.mostlyWait(barrier));
        int calls = 0;
        while (shares.mostlyWait(barrier)) {
            shares.called(barrier, false);
            calls++;
        }
        assertTrue(calls <= 32, "the old calls still counted after " + calls + " new ones");
    }

    @Test
    void waitsOfACopyWhoseCallsAreNotCountedCountNothing() {
        for (int wait = 0; wait < 10; wait++) {
            shares.waited(barrier);
        }
        for (int call = 0; call < 4; call++) {
            shares.called(barrier, false);
        }
        assertFalse(shares.mostlyWait(barrier));
    }
}
