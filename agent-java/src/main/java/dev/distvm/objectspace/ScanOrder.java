package dev.distvm.objectspace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

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
 * {@link WriteTracking} lists what a scan reads in that order.
 */
final class ScanOrder {
    private ScanOrder() {}

    /** The groups a scan produced, in the order the receiver must apply them: the reverse of the scan's. */
    static List<WireFormat.Group> applyOrder(List<WireFormat.Group> scanned) {
        List<WireFormat.Group> reversed = new ArrayList<>(scanned);
        Collections.reverse(reversed);
        return reversed;
    }
}
