package dev.distvm.mpi.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpinBeforeWaitingTest {
    private static final int CORES = 2;

    /** A machine whose runnable-thread readings are {@code readings}, read at every wait (period 0). */
    private static SpinBeforeWaiting machine(Deque<Integer> readings) {
        return new SpinBeforeWaiting(readings::removeFirst, CORES, true, -1);
    }

    @Test
    void spinsWhileTheRunnableThreadsFitTheCoresAndTheWaitersPeer() {
        SpinBeforeWaiting quiet = machine(new ArrayDeque<>(List.of(1, 2, 3)));
        assertTrue(quiet.admitted());
        assertTrue(quiet.admitted());
        assertTrue(quiet.admitted(), "the waiter, its peer and a helper on two cores");
    }

    @Test
    void aLastingHogStopsTheSpinningOnlyOnceEveryRecentReadingSawIt() {
        SpinBeforeWaiting loaded = machine(new ArrayDeque<>(List.of(2, 6, 7, 6, 2)));
        assertTrue(loaded.admitted());
        assertTrue(loaded.admitted(), "one busy reading is a moment, not a hog");
        assertTrue(loaded.admitted());
        assertFalse(loaded.admitted(), "three busy readings in a row");
        assertTrue(loaded.admitted(), "the hog has gone");
    }

    @Test
    void neverSpinsWhenTheCountCannotBeReadOrSpinningIsOff() {
        SpinBeforeWaiting unknown = machine(new ArrayDeque<>(List.of(Integer.MAX_VALUE, Integer.MAX_VALUE)));
        assertFalse(unknown.admitted());
        assertFalse(unknown.admitted());
        SpinBeforeWaiting off = new SpinBeforeWaiting(() -> 1, CORES, false, -1);
        assertFalse(off.admitted());
    }

    @Test
    void readsTheMachineAtMostOncePerPeriod() {
        Deque<Integer> readings = new ArrayDeque<>(List.of(1));
        SpinBeforeWaiting machine = new SpinBeforeWaiting(readings::removeFirst, CORES, true, Long.MAX_VALUE / 4);
        assertTrue(machine.admitted());
        assertTrue(machine.admitted(), "a second reading would have failed: there is none left");
    }
}
