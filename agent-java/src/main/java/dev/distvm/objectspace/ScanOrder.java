package dev.distvm.objectspace;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The order in which a release or a refresh reads shared things, and the opposite order in which
 * the other side applies what it read. Programs that publish with plain writes (spin barriers and
 * pipelines: the data, then a flag or a counter in a small array) are racy under the JMM, yet
 * finish with the right answer on one JVM, whose stores become visible in order. A scan that read
 * a flag after its writer set it, but the data before the writer wrote them, would hand the other
 * node a new flag with stale data (the pipelined SOR computed a wrong grid that way). So a scan
 * reads small things first (objects' fields and statics, then arrays by length: flags and
 * counters before the data they guard), and whatever flag it sees, the data written before it are
 * read later and are at least as new; the receiver applies the groups in the reverse order, data
 * before flags, so that its threads see no flag before its data. This is a heuristic for the
 * common shape, not a guarantee: a flag kept in an array larger than its data is not helped.
 */
final class ScanOrder {
    private ScanOrder() {}

    /**
     * {@code things} in the order a scan reads them: small holders first (one the collector freed
     * anywhere), equal sizes in their given order. Every shared array is due at every scan, so the
     * sort keys are taken once per holder (a comparator asking each array's length reflectively at
     * every comparison was a tenth of a start that carried 3,000 arrays).
     */
    static <T> List<T> smallFirst(Collection<T> things, Function<T, Object> holderOf) {
        List<T> given = new ArrayList<>(things);
        long[] keys = new long[given.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (long) size(holderOf.apply(given.get(i))) << 32 | i;
        }
        Arrays.sort(keys);
        List<T> sorted = new ArrayList<>(keys.length);
        for (long key : keys) {
            sorted.add(given.get((int) key));
        }
        return sorted;
    }

    private static int size(Object holder) {
        return holder != null && holder.getClass().isArray() ? 1 + Array.getLength(holder) : 0;
    }

    /** The groups a scan produced, in the order the receiver must apply them: the reverse of the scan's. */
    static List<WireFormat.Group> applyOrder(List<WireFormat.Group> scanned) {
        List<WireFormat.Group> reversed = new ArrayList<>(scanned);
        Collections.reverse(reversed);
        return reversed;
    }
}
