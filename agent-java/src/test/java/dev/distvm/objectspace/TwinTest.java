package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.objectspace.Twin.Change;
import java.util.AbstractList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TwinTest {
    static class Base {
        int count;
        long total;
    }

    /** As the rewriter leaves an application class: injected fields present, finals dropped. */
    static class Account extends Base {
        public transient Object $dist$meta;
        double balance;
        String owner;
        Object next;
    }

    @Test
    void releaseSendsExactlyTheSlotsWrittenSinceTheLastRelease() {
        Account account = new Account();
        account.owner = "ann";
        Twin twin = Twin.of(account);
        account.total = 1L << 40;
        account.balance = 2.5;
        account.next = account;
        List<Change> changes = twin.changes(account);
        // slots: count, total (Base first), then balance, owner, next; the injected field is not copied
        assertEquals(List.of(new Change(1, 1L << 40), new Change(2, 2.5)), changes.subList(0, 2));
        assertEquals(4, changes.get(2).slot());
        assertTrue(changes.get(2).value() == account);
        assertEquals(List.of(), twin.changes(account));
    }

    @Test
    void aReferenceIsComparedByIdentityNotEquals() {
        Account account = new Account();
        account.owner = new String("ann");
        Twin twin = Twin.of(account);
        account.owner = new String("ann");
        assertEquals(1, twin.changes(account).size());
    }

    @Test
    void refreshKeepsWhatThisNodeWroteAndTakesTheRest() {
        Account account = new Account();
        Twin twin = Twin.of(account);
        account.count = 7;
        twin.refresh(account, List.of(new Change(0, 100), new Change(1, 5L), new Change(3, "bob")), 0);
        assertEquals(7, account.count);
        assertEquals(5L, account.total);
        assertEquals("bob", account.owner);
        assertEquals(List.of(new Change(0, 7)), twin.changes(account));
    }

    @Test
    void primitiveArraysCarryOnlyTheElementsThatChanged() {
        double[] values = new double[600];
        values[1] = Double.NaN;
        Twin doubles = Twin.of(values);
        values[2] = -0.0;
        values[4] = 50;
        values[599] = 60;
        List<Change> changes = doubles.changes(values);
        // windows of 256 elements: [2, 258) and [599, 600); NaN equals its twin (same bits)
        assertEquals(List.of(2, 599), changes.stream().map(Change::slot).toList());
        MaskedRun first = (MaskedRun) changes.get(0).value();
        assertArrayEquals(new double[] {-0.0, 50}, (double[]) first.values);
        assertEquals(List.of(), doubles.changes(values));
    }

    @Test
    void applyingAWorkersChangesLeavesTheOtherElementsOfTheMasterAlone() {
        int[] workerCopy = new int[8];
        Twin workerTwin = Twin.of(workerCopy);
        int[] master = new int[8];
        Twin workersViewAtHome = Twin.of(master);
        for (int i = 0; i < 8; i += 2) {
            workerCopy[i] = 10 + i; // red/black: every other element
        }
        master[3] = 33; // a home thread writes an element between them meanwhile
        workersViewAtHome.apply(master, workerTwin.changes(workerCopy));
        assertArrayEquals(new int[] {10, 0, 12, 33, 14, 0, 16, 0}, master);
    }

    @Test
    void refreshOfAnArrayKeepsElementsWrittenHere() {
        long[] master = new long[4];
        Twin nodesView = Twin.of(master);
        long[] copy = new long[4];
        Twin twin = Twin.of(copy);
        copy[1] = 7;
        master[0] = 10;
        master[1] = 11;
        master[2] = 12;
        twin.refresh(copy, nodesView.changes(master), 0);
        assertArrayEquals(new long[] {10, 7, 12, 0}, copy);
        List<Change> release = twin.changes(copy);
        assertEquals(1, release.size());
        assertArrayEquals(new long[] {7}, (long[]) ((MaskedRun) release.get(0).value()).values);
    }

    @Test
    void aVolatileWriteOfTheValueTheCopyHeldIsCarriedAndNotUndoneMeanwhile() {
        Account account = new Account();
        account.count = 1;
        Twin twin = Twin.of(account);
        // The home holds another node's later value (0); this node writes 1, the value its copy held.
        twin.volatileWriteStarting(0);
        twin.refresh(account, List.of(new Change(0, 0)), 0); // arrives between the hooks: the write stands
        account.count = 1;
        twin.volatileWriteEnded(0);
        twin.refresh(account, List.of(new Change(0, 0)), 0); // arrives before the release: still stands
        assertEquals(1, account.count);
        List<Change> carried = twin.changes(account);
        assertEquals(List.of(new Change(0, 1)), carried, "a compare alone sees no change");
        twin.released(carried, 1);
        assertEquals(List.of(), twin.changes(account), "carried once");
        twin.refresh(account, List.of(new Change(0, 2)), 1); // after the release, later writes arrive
        assertEquals(2, account.count);
    }

    @Test
    void aMessageWrittenBeforeAReleaseWasAppliedDoesNotUndoIt() {
        Account account = new Account();
        Twin twin = Twin.of(account);
        account.count = 5;
        twin.released(twin.changes(account), 1);
        // The home wrote this message (another node's count, and a total) before it applied release 1.
        twin.refresh(account, List.of(new Change(0, 4), new Change(1, 9L)), 0);
        assertEquals(5, account.count);
        assertEquals(9L, account.total);
        assertEquals(List.of(), twin.changes(account)); // the home has 5 too, once it applied release 1
        twin.refresh(account, List.of(new Change(0, 6)), 1); // a later write elsewhere does arrive
        assertEquals(6, account.count);
    }

    @Test
    void anArrayTakesFromAMessageWrittenBeforeAReleaseOnlyTheElementsItDidNotCarry() {
        int[] master = new int[300];
        Twin nodesView = Twin.of(master);
        int[] copy = new int[300];
        Twin twin = Twin.of(copy);
        master[1] = 11;
        master[3] = 30;
        master[290] = 290;
        List<Change> beforeRelease = nodesView.changes(master);
        copy[3] = 33;
        twin.released(twin.changes(copy), 1);
        twin.refresh(copy, beforeRelease, 0);
        int[] expected = new int[300];
        expected[1] = 11;
        expected[3] = 33;
        expected[290] = 290;
        assertArrayEquals(expected, copy);
        assertEquals(List.of(), twin.changes(copy));
        master[3] = 40; // written at the home after it applied release 1
        twin.refresh(copy, nodesView.changes(master), 1);
        assertEquals(40, copy[3]);
    }

    @Test
    void arraysOfReferencesChangeSlotBySlot() {
        Object[] refs = {"a", null};
        Twin references = Twin.of(refs);
        refs[1] = refs;
        assertEquals(List.of(new Change(1, refs)), references.changes(refs));
        int[][] matrix = {{1}, {2}};
        Twin rows = Twin.of(matrix);
        matrix[1] = new int[] {3};
        assertEquals(1, rows.changes(matrix).get(0).slot());
        assertTrue(rows.changes(matrix).isEmpty());
    }

    @Test
    void aWriteRacingWithReleasesIsNeverLost() throws InterruptedException {
        long[] slot = new long[1];
        Twin twin = Twin.of(slot);
        long last = 200_000;
        long[] home = new long[1];
        Thread writer = new Thread(() -> {
            for (long v = 1; v <= last; v++) {
                slot[0] = v;
            }
        });
        writer.start();
        while (writer.isAlive()) {
            twin.changes(slot).forEach(change -> ((MaskedRun) change.value()).applyTo(home, 0));
        }
        writer.join();
        twin.changes(slot).forEach(change -> ((MaskedRun) change.value()).applyTo(home, 0));
        assertEquals(last, home[0]);
    }

    static class Listy extends AbstractList<String> {
        @Override
        public String get(int index) {
            return null;
        }

        @Override
        public int size() {
            return 0;
        }
    }

    @Test
    void aClassExtendingAJdkClassIsRefusedWithItsName() {
        UnsharableException e = assertThrows(UnsharableException.class, () -> Twin.of(new Listy()));
        assertEquals(Listy.class.getName(), e.className());
        assertTrue(e.getMessage().contains("java.util.AbstractList"), e.getMessage());
    }

    static class Ratio extends Number {
        long numerator = 3;
        long denominator = 4;

        @Override
        public int intValue() {
            return 0;
        }

        @Override
        public long longValue() {
            return 0;
        }

        @Override
        public float floatValue() {
            return 0.75f;
        }

        @Override
        public double doubleValue() {
            return 0.75;
        }
    }

    @Test
    void aClassExtendingAJdkClassWithoutFieldsIsCopiedWithItsOwnFieldsAsARecordIs() {
        Ratio ratio = new Ratio();
        Twin twin = Twin.of(ratio);
        ratio.denominator = 5;
        assertEquals(List.of(new Change(1, 5L)), twin.changes(ratio), "java.lang.Number holds no state");
    }
}
