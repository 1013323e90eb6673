package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.distvm.objectspace.Twin.Change;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArrayWritesTest {
    private static final int CHUNK = 1 << ArrayWrites.CHUNK_SHIFT;

    @Test
    void aReleaseTakesTheWrittenChunksMergedIntoRangesOnce() {
        ArrayWrites writes = new ArrayWrites(10 * CHUNK + 5);
        writes.stored(3);
        writes.stored(CHUNK + 7);
        writes.stored(5 * CHUNK);
        writes.stored(10 * CHUNK + 4);
        assertArrayEquals(new int[] {0, 2 * CHUNK, 5 * CHUNK, 6 * CHUNK, 10 * CHUNK, 10 * CHUNK + 5}, writes.take());
        assertArrayEquals(new int[0], writes.take(), "taken marks are gone");
    }

    @Test
    void aWriteOutsideRewrittenCodeMarksItsRangeAndJdkCodeMarksEverything() {
        ArrayWrites writes = new ArrayWrites(4 * CHUNK);
        writes.stored(CHUNK - 1, CHUNK + 1);
        assertArrayEquals(new int[] {0, 2 * CHUNK}, writes.take());
        writes.storedAll();
        assertArrayEquals(new int[] {0, 4 * CHUNK}, writes.take());
    }

    @Test
    void anAliasedArrayIsAlwaysComparedWhole() {
        ArrayWrites writes = new ArrayWrites(CHUNK);
        writes.alias();
        assertNull(writes.take());
        assertNull(writes.sweptAfter(0));
    }

    @Test
    void eachViewAtTheHomeSeesTheChunksSweptSinceItsOwnLastLook() {
        ArrayWrites writes = new ArrayWrites(3 * CHUNK);
        long first = writes.sweep();
        writes.stored(2 * CHUNK);
        long second = writes.sweep(); // a look by view A finds chunk 2
        writes.stored(0);
        long third = writes.sweep(); // a look by view B finds chunk 0
        assertArrayEquals(new int[] {0, CHUNK, 2 * CHUNK, 3 * CHUNK}, writes.sweptAfter(first), "B last looked at the first sweep");
        assertArrayEquals(new int[] {0, CHUNK}, writes.sweptAfter(second), "A last looked at the second");
        assertArrayEquals(new int[0], writes.sweptAfter(third));
    }

    @Test
    void aTwinComparesOnlyTheRangesItIsGiven() {
        double[] array = new double[3 * CHUNK];
        Twin twin = Twin.of(array);
        array[10] = 1;
        array[2 * CHUNK + 1] = 2;
        List<Change> inSecondRange = twin.changes(array, new int[] {CHUNK, 3 * CHUNK});
        assertEquals(1, inSecondRange.size());
        assertEquals(2 * CHUNK + 1, inSecondRange.get(0).slot());
        assertEquals(1, twin.changes(array).size(), "the write outside the range is still a difference");
    }
}
