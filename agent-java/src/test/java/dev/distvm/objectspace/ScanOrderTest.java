package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScanOrderTest {
    @Test
    void theReceiverAppliesInTheReverseOrder() {
        WireFormat.Group first = new WireFormat.Group(1, List.of(), Twin.of(new Object[1]));
        WireFormat.Group second = new WireFormat.Group(2, List.of(), Twin.of(new Object[1]));
        assertEquals(List.of(second, first), ScanOrder.applyOrder(List.of(first, second)));
    }
}
