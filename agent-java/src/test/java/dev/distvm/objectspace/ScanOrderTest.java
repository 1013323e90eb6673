package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScanOrderTest {
    @Test
    void smallHoldersFirstAndEqualSizesInTheirGivenOrder() {
        Object object = new Object();
        int[] flag = new int[1];
        int[] data = new int[1000];
        long[] otherFlag = new long[1];
        double[] large = new double[5000];
        // holders by name; "freed" stands for one the collector took (no holder any more)
        Map<String, Object> holders = new java.util.HashMap<>(Map.of("object", object, "flag", flag, "data", data,
                "otherFlag", otherFlag, "large", large));
        List<String> given = List.of("large", "data", "flag", "freed", "object", "otherFlag");
        assertEquals(List.of("freed", "object", "flag", "otherFlag", "data", "large"),
                ScanOrder.smallFirst(given, holders::get));
    }

    @Test
    void theReceiverAppliesInTheReverseOrder() {
        WireFormat.Group first = new WireFormat.Group(1, List.of(), false);
        WireFormat.Group second = new WireFormat.Group(2, List.of(), false);
        assertEquals(List.of(second, first), ScanOrder.applyOrder(List.of(first, second)));
    }
}
