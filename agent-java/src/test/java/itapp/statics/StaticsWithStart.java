package itapp.statics;

/**
 * Two placed threads, each reading statics: {@link Table}, which main initialized before starting
 * them, and {@link Late}, whose initializer runs only when the second thread first uses it (it
 * prints, so the output shows when). The sums say whether each thread saw main's writes.
 */
public final class StaticsWithStart {
    static final class Table {
        static int[] values;
        static long scale;
    }

    static final class Late {
        static final long[] ONES;

        static {
            System.out.println("Late initialized");
            ONES = new long[] {1, 1, 1};
        }
    }

    private StaticsWithStart() {}

    public static void main(String[] args) throws InterruptedException {
        Table.values = new int[100_000];
        for (int i = 0; i < Table.values.length; i++) {
            Table.values[i] = i % 10;
        }
        Table.scale = 3;
        long[] sums = new long[2];
        Thread first = new Thread(() -> {
            long sum = 0;
            for (int v : Table.values) {
                sum += v * Table.scale;
            }
            sums[0] = sum;
        }, "table-reader");
        Thread second = new Thread(() -> {
            long sum = 0;
            for (long one : Late.ONES) {
                sum += one;
            }
            sums[1] = sum + Table.values[7];
        }, "late-reader");
        first.start();
        second.start();
        first.join();
        second.join();
        System.out.println("table sum " + sums[0] + ", late sum " + sums[1]);
    }
}
