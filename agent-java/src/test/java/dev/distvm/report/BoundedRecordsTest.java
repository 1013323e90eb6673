package dev.distvm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BoundedRecordsTest {
    @Test
    void keepsTheFirstRecordsInOrderAndCountsTheRest() {
        BoundedRecords<Integer> records = new BoundedRecords<>();
        for (int i = 0; i < BoundedRecords.LISTED + 5; i++) {
            records.add(i);
        }
        List<Integer> listed = records.listed();
        assertEquals(IntStream.range(0, BoundedRecords.LISTED).boxed().toList(), listed);
        assertEquals(5, records.notListed());
    }
}
