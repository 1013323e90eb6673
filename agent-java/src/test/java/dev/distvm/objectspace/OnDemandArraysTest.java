package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A home and a worker space in one JVM, messages handed over as bytes: a large array goes to the
 * worker without its values, a fetch brings a run of chunks (followed from then on), and a change to
 * a chunk the worker holds without following it makes that chunk absent instead of travelling.
 */
class OnDemandArraysTest {
    private static final int WORKER = 2;
    private static final ClassLoader LOADER = OnDemandArraysTest.class.getClassLoader();
    /** 32 MB: the smallest array that travels on demand. */
    private static final int LENGTH = (int) (HomeSpace.ON_DEMAND_BYTES / Integer.BYTES);
    private static final int CHUNK = 1 << AbsentChunks.CHUNK_SHIFT;

    private final HomeSpace home = new HomeSpace(1, LOADER);
    private final WorkerSpace worker = new WorkerSpace(() -> WORKER, LOADER);

    private static ByteBuffer delivered(WireBuffer sent) {
        return ByteBuffer.wrap(sent.toByteArray()).asReadOnlyBuffer();
    }

    /** The home's message naming {@code master} (sent on demand the first time) and what changed since the last. */
    private int[] send(int[] master) {
        return worker.receive(delivered(home.write(WORKER, w -> {
            w.ref(master);
            home.writeRefresh(WORKER, w);
        })), (reader, acknowledged) -> {
            int[] copy = (int[]) reader.ref();
            worker.applyChanges(reader, acknowledged);
            return copy;
        });
    }

    /** What a worker's fault of chunks [from, to) brings. */
    private void fetch(int[] master, int from, int to) {
        long id = home.idOf(master);
        worker.receive(delivered(home.write(WORKER, w -> home.writeFetched(WORKER, id, from, to, w))), (reader, acknowledged) -> {
            worker.applyFetched(reader, acknowledged);
            return null;
        });
    }

    private void storeAtHome(int[] master, int index, int value) {
        ProgramStores.storeInt(master, index, value, home::arrayWrites);
    }

    @Test
    void aLargeArrayArrivesWithoutValuesAndItsNonZeroChunksAbsent() {
        int[] master = new int[LENGTH];
        master[3 * CHUNK + 5] = 42;
        master[LENGTH - 1] = 43;
        int[] copy = send(master);
        AbsentChunks absent = worker.absentChunks(copy);
        assertEquals(0, copy[3 * CHUNK + 5], "the values stayed home");
        assertTrue(absent.absent(3 * CHUNK) && absent.absent(LENGTH - 1));
        assertFalse(absent.absent(0) || absent.absent(4 * CHUNK), "chunks of zeros are here: the new array has them");
    }

    @Test
    void aSmallerArrayGoesOnDemandWhenEveryWorkerGettingItWholeWouldMoveTooMuch() {
        int[] master = new int[(int) (HomeSpace.ALWAYS_WHOLE_BYTES / Integer.BYTES) * 2]; // 8 MB
        master[5] = 1;
        int[] whole = send(master);
        assertEquals(1, whole[5], "with one worker, it travels whole");
        assertEquals(null, worker.absentChunks(whole));
        home.countWorkersThrough(() -> 8); // 8 MB to each of 8 workers: 64 MB
        int[] other = new int[master.length];
        other[5] = 1;
        int[] onDemand = send(other);
        assertEquals(0, onDemand[5]);
        assertTrue(worker.absentChunks(onDemand).absent(5));
    }

    @Test
    void aFetchBringsItsChunksWhichAreFollowedFromThenOn() {
        int[] master = new int[LENGTH];
        master[3 * CHUNK + 5] = 42;
        int[] copy = send(master);
        fetch(master, 3, 4);
        AbsentChunks absent = worker.absentChunks(copy);
        assertEquals(42, copy[3 * CHUNK + 5]);
        assertFalse(absent.absent(3 * CHUNK + 5));
        assertFalse(absent.anyAbsent());
        storeAtHome(master, 3 * CHUNK + 6, 44); // a followed chunk: its change travels
        send(master);
        assertEquals(44, copy[3 * CHUNK + 6]);
    }

    @Test
    void aChangeToAChunkHeldButNotFollowedMakesItAbsentInsteadOfTravelling() {
        int[] master = new int[LENGTH];
        int[] copy = send(master);
        AbsentChunks absent = worker.absentChunks(copy);
        assertFalse(absent.anyAbsent(), "all zeros: nothing is absent");
        storeAtHome(master, 7 * CHUNK + 1, 9);
        send(master);
        assertEquals(0, copy[7 * CHUNK + 1], "the value stayed home");
        assertTrue(absent.absent(7 * CHUNK + 1), "the chunk that changed is absent now");
        assertFalse(absent.absent(6 * CHUNK) || absent.absent(8 * CHUNK));
        fetch(master, 7, 8);
        assertEquals(9, copy[7 * CHUNK + 1]);
    }

    /**
     * The worker's collector frees a copy whose chunk is absent, and a home message names it again
     * before the worker has made the freed copy a tombstone: the copy made again from its twin still
     * lacks the chunk, and a read of it faults, also after the old copy's tombstone is made (which
     * shares the same chunks and once took the new copy out of the reads' look-up).
     */
    @Test
    void aCopyMadeAgainFromItsTwinStillFaultsItsAbsentChunks() throws InterruptedException {
        int[] master = new int[LENGTH];
        master[3 * CHUNK] = 42;
        long id = sendAndForget(master);
        for (int attempt = 0; attempt < 500 && worker.copyCount() > 0; attempt++) {
            System.gc();
        }
        assertEquals(0, worker.copyCount(), "500 full collections did not free the copy");
        int[] again = send(master); // made again from its twin
        worker.awaitCollected(10); // the freed copy's tombstone, after the new copy
        assertEquals(id, worker.idOf(again));
        assertTrue(worker.absentChunks(again).absent(3 * CHUNK));
        List<String> fetched = new ArrayList<>();
        ArrayReads.useRegistry(worker::absentChunks, (array, chunks, from, to) -> {
            fetched.add(from + "-" + to);
            fetch(master, from, to);
        });
        ArrayReads.read(again, 3 * CHUNK);
        assertEquals(List.of("3-4"), fetched);
        assertEquals(42, again[3 * CHUNK]);
    }

    /** Sends {@code master} and keeps no reference to the worker's copy; returns its id. */
    private long sendAndForget(int[] master) {
        send(master);
        return home.idOf(master);
    }

    @Test
    void aWalkFetchesHalfAsMuchAgainAsItDidAndAJumpStartsSmall() {
        AbsentChunks chunks = new AbsentChunks(1, 4096 * CHUNK, allAbsent(4096));
        int[] first = chunks.toFetch(0);
        assertArrayEquals(new int[] {0, 8}, first);
        int fetched = 8;
        int next = 8;
        for (int i = 0; i < 20; i++) {
            int[] run = chunks.toFetch(next * CHUNK);
            assertEquals(next, run[0], "a fault where the last fetch ended continues the walk");
            assertTrue(run[1] - run[0] <= Math.max(8, fetched / 2), "at most half of what the walk fetched");
            fetched += run[1] - run[0];
            next = run[1];
        }
        assertArrayEquals(new int[] {3000, 3008}, chunks.toFetch(3000 * CHUNK), "a jump starts a new walk");
    }

    @Test
    void threadsWalkingTheirOwnSlicesInTurnEachKeepTheirWalk() {
        AbsentChunks chunks = new AbsentChunks(1, 4096 * CHUNK, allAbsent(4096));
        int[] next = {0, 1024, 2048, 3072}; // four threads, faulting in turn
        int[] widest = new int[4];
        for (int fault = 0; fault < 40; fault++) {
            int t = fault % 4;
            int[] run = chunks.toFetch(next[t] * CHUNK);
            assertEquals(next[t], run[0]);
            widest[t] = Math.max(widest[t], run[1] - run[0]);
            next[t] = run[1];
        }
        for (int t = 0; t < 4; t++) {
            assertTrue(widest[t] > 8, "walk " + t + " widened to " + widest[t] + " chunks, not reset by the others' faults");
        }
    }

    @Test
    void aFaultFetchesOnlyAbsentChunksAndHandingOverFetchesWhatIsNotFollowed() {
        byte[] flags = allAbsent(16);
        flags[3] = 0; // here (zeros), not followed
        AbsentChunks chunks = new AbsentChunks(1, 16 * CHUNK, flags);
        assertArrayEquals(new int[] {0, 3}, chunks.toFetch(0), "the run stops at a chunk that is here");
        chunks.arrived(0, 3);
        assertArrayEquals(new int[] {3, 16}, chunks.unfollowedRuns(), "JDK code must not hold a chunk that may go absent");
        chunks.arrived(3, 16);
        assertEquals(0, chunks.unfollowedRuns().length);
        assertFalse(chunks.anyAbsent());
    }

    private static byte[] allAbsent(int chunks) {
        byte[] flags = new byte[chunks];
        java.util.Arrays.fill(flags, (byte) 1);
        return flags;
    }
}
