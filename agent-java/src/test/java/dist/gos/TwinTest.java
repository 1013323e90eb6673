package dist.gos;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dist.gos.Twin.Change;
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
        public transient int $dist$state;
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
        twin.refresh(account, List.of(new Change(0, 100), new Change(1, 5L), new Change(3, "bob")));
        assertEquals(7, account.count);
        assertEquals(5L, account.total);
        assertEquals("bob", account.owner);
        assertEquals(List.of(new Change(0, 7)), twin.changes(account));
    }

    @Test
    void primitiveArraysChangeInExactRunsOfElements() {
        double[] values = {1.0, Double.NaN, 3.0, 4.0, 5.0, 6.0};
        Twin doubles = Twin.of(values);
        values[2] = -0.0;
        values[4] = 50;
        values[5] = 60;
        List<Change> changes = doubles.changes(values);
        // NaN equals its twin (same bits); 3.0 -> -0.0 differs; the unchanged 4.0 between is not carried
        assertEquals(2, changes.size(), changes.toString());
        assertEquals(2, changes.get(0).slot());
        assertArrayEquals(new double[] {-0.0}, (double[]) changes.get(0).value());
        assertEquals(4, changes.get(1).slot());
        assertArrayEquals(new double[] {50, 60}, (double[]) changes.get(1).value());
        assertEquals(List.of(), doubles.changes(values));
    }

    @Test
    void applyingAWorkersRunLeavesTheOtherElementsOfTheMasterAlone() {
        int[] master = new int[8];
        Twin workersView = Twin.of(master);
        master[3] = 33; // a home thread writes its own element meanwhile
        workersView.apply(master, List.of(new Change(4, new int[] {44, 45})));
        assertArrayEquals(new int[] {0, 0, 0, 33, 44, 45, 0, 0}, master);
    }

    @Test
    void refreshOfAnArrayKeepsElementsWrittenHere() {
        long[] copy = new long[4];
        Twin twin = Twin.of(copy);
        copy[1] = 7;
        twin.refresh(copy, List.of(new Change(0, new long[] {10, 11, 12})));
        assertArrayEquals(new long[] {10, 7, 12, 0}, copy);
        List<Change> release = twin.changes(copy);
        assertEquals(1, release.size());
        assertEquals(1, release.get(0).slot());
        assertArrayEquals(new long[] {7}, (long[]) release.get(0).value());
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
            twin.changes(slot).forEach(change -> home[0] = ((long[]) change.value())[0]);
        }
        writer.join();
        twin.changes(slot).forEach(change -> home[0] = ((long[]) change.value())[0]);
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
}
