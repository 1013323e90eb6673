package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When a worker's monitor leases go back to the home, and when they must not. */
class MonitorLeasesTest {
    private final List<Integer> givenBack = new ArrayList<>();
    /**
     * Returns run at once on the caller's thread, so each test sees their effect when the call
     * returns; no hold is too long (a test must not depend on how fast the machine runs it).
     */
    private final MonitorLeases leases = new MonitorLeases(Runnable::run, lease -> givenBack.add(lease.id), Long.MAX_VALUE, lock -> false);

    private MonitorLeases.Lease grant(Object copy) {
        synchronized (copy) {
            MonitorLeases.Held held = leases.held(copy);
            held.requesting = true;
            MonitorLeases.Lease lease = leases.newLease(copy);
            held.requesting = false;
            leases.granted(lease, 1);
            return lease;
        }
    }

    private MonitorLeases.HandOver enter(Object copy) {
        synchronized (copy) {
            return MonitorLeases.use(leases.held(copy).owner);
        }
    }

    @Test
    void aHandOverIsAcrossNodesAfterAGrantWithinTheNodeBetweenThreadsAndNoneForTheSameThread() throws Exception {
        Object copy = new Object();
        grant(copy);
        assertEquals(MonitorLeases.HandOver.ACROSS_NODES, enter(copy), "the grant brought the monitor from the home");
        assertEquals(MonitorLeases.HandOver.NONE, enter(copy), "the same thread again: no hand-over");
        MonitorLeases.HandOver[] other = new MonitorLeases.HandOver[1];
        Thread neighbour = new Thread(() -> other[0] = enter(copy));
        neighbour.start();
        neighbour.join();
        assertEquals(MonitorLeases.HandOver.WITHIN_NODE, other[0], "another thread of the node, through the node's lease");
        MonitorLeases.Lease lease = leases.held(copy).owner;
        assertEquals(MonitorLeases.HandOver.WITHIN_NODE, enter(copy), "and back");
        leases.recalled(lease.id, 1);
        assertEquals(List.of(lease.id), givenBack);
        grant(copy);
        assertEquals(MonitorLeases.HandOver.ACROSS_NODES, enter(copy), "granted again after the monitor went home");
    }

    @Test
    void aLeaseNobodyUsedSinceItsGrantStaysWhateverAsksForIt() {
        Object copy = new Object();
        MonitorLeases.Lease lease = grant(copy);
        leases.recalled(lease.id, 1);
        leases.review(true);
        assertEquals(List.of(), givenBack, "the thread it was granted to has not had it yet");
        assertFalse(MonitorLeases.toGiveBack(lease));
        enter(copy);
        assertTrue(MonitorLeases.toGiveBack(lease), "recalled and used: the next enter here gives it back first");
    }

    @Test
    void aRecalledLeaseGoesBackOnceUsedAndItsNumberServesTheNextOne() {
        Object copy = new Object();
        MonitorLeases.Lease lease = grant(copy);
        enter(copy);
        leases.recalled(lease.id, 1);
        assertEquals(List.of(lease.id), givenBack);
        assertNull(leases.peek(copy), "nothing is left of a monitor this node neither holds nor asks for");
        assertEquals(lease.id, grant(new Object()).id, "the delegate of a returned lease serves the next");
    }

    @Test
    void theReviewReturnsIdleLeasesAndKeepsBusyOnes() {
        Object idle = new Object();
        Object busy = new Object();
        MonitorLeases.Lease idleLease = grant(idle);
        MonitorLeases.Lease busyLease = grant(busy);
        enter(idle);
        enter(busy);
        leases.review(false); // both were entered since the grant
        assertEquals(List.of(), givenBack);
        enter(busy);
        leases.review(false);
        assertEquals(List.of(idleLease.id), givenBack);
        assertSame(busyLease, leases.peek(busy).owner);
        assertTrue(leases.anyHeld(), "a lease is held: the staleness bound keeps reviewing for its return");
        leases.review(true);
        assertEquals(List.of(idleLease.id, busyLease.id), givenBack, "no placed thread runs here any more: everything goes back");
        assertFalse(leases.anyHeld(), "nothing held: the staleness bound may sleep");
    }

    @Test
    void aLeaseHeldTooLongGoesBackBusyOrNot() {
        MonitorLeases bounded = new MonitorLeases(Runnable::run, lease -> givenBack.add(lease.id), 0, lock -> false);
        Object copy = new Object();
        MonitorLeases.Lease lease;
        synchronized (copy) {
            lease = bounded.newLease(copy);
            bounded.granted(lease, 1);
            MonitorLeases.use(lease);
        }
        bounded.review(false);
        assertEquals(List.of(lease.id), givenBack);
    }

    @Test
    void aLeaseFromBirthIsHeldAndGoesBackAtTheFirstReviewNobodyEnteredIn() {
        Object pushed = new Object();
        int id = leases.heldFromBirth(pushed);
        assertEquals(id, leases.peek(pushed).owner.id, "the node holds the master's monitor from the start");
        leases.review(false);
        assertEquals(List.of(id), givenBack, "used from the start, so an idle one goes back like any other");
    }

    @Test
    void aLeaseWhoseCopyIsWaitedOnLocallyWakesTheWaitersInsteadOfGoingBack() throws Exception {
        Object copy = new Object();
        boolean[] waitedOn = {true};
        MonitorLeases waited = new MonitorLeases(Runnable::run, lease -> givenBack.add(lease.id), Long.MAX_VALUE,
                lock -> waitedOn[0]);
        int id = waited.heldFromBirth(copy);
        boolean[] woken = new boolean[1];
        Thread waiter = new Thread(() -> {
            synchronized (copy) {
                try {
                    copy.wait(); // no timeout: only the lease's return can end it
                    woken[0] = true;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        waited.recalled(id, 1);
        waiter.join();
        assertTrue(woken[0]);
        assertEquals(List.of(), givenBack, "a notify at the home would not have reached the waiter");
        waitedOn[0] = false;
        waited.review(false);
        assertEquals(List.of(id), givenBack, "once nobody waits locally it goes back");
    }

    @Test
    void aStaleRecallCostsNothing() {
        leases.recalled(7, 1);
        assertEquals(List.of(), givenBack);
    }

    @Test
    void twoGrantsOfOneMonitorAreRefused() {
        Object copy = new Object();
        grant(copy);
        assertThrows(IllegalStateException.class, () -> grant(copy));
    }

    /**
     * A notify at the home recalls the lease; the node's thread then waits, which lends the lease
     * to the delegate, which lets the monitor go: the woken waiter has it. The wait's answer is a
     * new grant, which the earlier recall does not ask back, whichever arrives first; a recall of
     * the new grant does.
     */
    @Test
    void aRecallOfAGrantThatAWaitEndedSinceAsksForNothing() {
        Object copy = new Object();
        MonitorLeases.Lease lease = grant(copy);
        enter(copy);
        MonitorLeases.Held held = leases.held(copy);
        synchronized (copy) {
            held.owner = null; // lent to the delegate for a wait (CopyMonitors.await)
        }
        leases.recalled(lease.id, 1);
        assertEquals(List.of(), givenBack, "lent to a wait: nothing to give back");
        synchronized (copy) {
            leases.granted(lease, 2); // the wait's answer
        }
        enter(copy);
        assertFalse(MonitorLeases.toGiveBack(lease), "the recall of grant 1 was answered by the wait");
        leases.recalled(lease.id, 1);
        assertEquals(List.of(), givenBack, "nor when it arrives after the answer");
        leases.recalled(lease.id, 2);
        assertEquals(List.of(lease.id), givenBack, "a recall of the grant it holds is obeyed");
    }

    @Test
    void aRecallThatOvertookTheAnswerOfItsGrantIsObeyedOnceGranted() {
        Object copy = new Object();
        MonitorLeases.Lease lease = grant(copy);
        enter(copy);
        synchronized (copy) {
            leases.held(copy).owner = null;
        }
        leases.recalled(lease.id, 2); // sent as the delegate took the monitor back, before its answer
        synchronized (copy) {
            leases.granted(lease, 2);
        }
        enter(copy);
        assertTrue(MonitorLeases.toGiveBack(lease));
    }
}
