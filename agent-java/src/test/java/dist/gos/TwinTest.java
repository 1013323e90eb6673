package dist.gos;

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
    void arraysOfPrimitivesAndReferences() {
        double[] values = {1.0, Double.NaN, 3.0};
        Twin doubles = Twin.of(values);
        values[2] = -0.0;
        assertEquals(List.of(new Change(2, -0.0)), doubles.changes(values), "NaN equals its twin; 3.0 -> -0.0 differs");
        doubles.refresh(values, List.of(new Change(0, 9.0)));
        assertEquals(9.0, values[0]);

        Object[] refs = {"a", null};
        Twin references = Twin.of(refs);
        refs[1] = refs;
        assertEquals(1, references.changes(refs).size());
        int[][] matrix = {{1}, {2}};
        Twin rows = Twin.of(matrix);
        matrix[1] = new int[] {3};
        assertEquals(1, rows.changes(matrix).get(0).slot());
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
            twin.changes(slot).forEach(change -> home[0] = (long) change.value());
        }
        writer.join();
        twin.changes(slot).forEach(change -> home[0] = (long) change.value());
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
