package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.WireBuffer;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A home and a worker space in one JVM, messages handed over as bytes: a copy the worker's
 * garbage collector frees becomes a tombstone, the home forgets it when asked unless a message
 * the worker had not applied then names it, and such a message makes the copy again from its
 * twin. The garbage collector is asked to run until it has freed what the test dropped.
 */
class SpaceCollectionTest {
    private static final int WORKER = 2;
    private static final ClassLoader LOADER = SpaceCollectionTest.class.getClassLoader();

    private final HomeSpace home = new HomeSpace(1, LOADER);
    private final WorkerSpace worker = new WorkerSpace(() -> WORKER, LOADER);

    private ByteBuffer message(Object master) {
        return delivered(home.write(WORKER, w -> {
            w.ref(master);
            home.writeRefresh(WORKER, w);
        }));
    }

    private ByteBuffer refreshOnly() {
        return delivered(home.write(WORKER, w -> home.writeRefresh(WORKER, w)));
    }

    /** A message's bytes as the receiver gets them from the transport. */
    private static ByteBuffer delivered(WireBuffer sent) {
        return ByteBuffer.wrap(sent.toByteArray()).asReadOnlyBuffer();
    }

    /** Applies a {@link #message}; returns the copy it names. */
    private Object apply(ByteBuffer message) {
        return worker.receive(message, (reader, acknowledged) -> {
            Object copy = reader.ref();
            worker.applyChanges(reader, acknowledged);
            return copy;
        });
    }

    private void applyRefresh(ByteBuffer refresh) {
        worker.receive(refresh, (reader, acknowledged) -> {
            worker.applyChanges(reader, acknowledged);
            return null;
        });
    }

    /** Applies the message that carries {@code master} to the worker, which keeps no reference to its copy. */
    private long sendAndDrop(Object master, int localWrite) {
        Object copy = apply(message(master));
        if (copy instanceof int[] elements) {
            elements[1] = localWrite; // a write nobody will see: the program drops the copy before any release
        }
        return home.idOf(master);
    }

    private void awaitTombstones() throws InterruptedException {
        collectUntil(() -> worker.awaitCollected(10));
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws InterruptedException;
    }

    /** Full collections until {@code done} holds; fails if many do not bring it about. */
    private static void collectUntil(Condition done) throws InterruptedException {
        for (int attempt = 0; attempt < 500; attempt++) {
            if (done.holds()) {
                return;
            }
            System.gc();
        }
        assertTrue(done.holds(), "500 full collections did not free what the test dropped");
    }

    private static List<Long> accepted(byte[] reply) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(reply));
        List<Long> ids = new ArrayList<>();
        for (int i = in.readInt(); i > 0; i--) {
            ids.add(in.readLong());
        }
        return ids;
    }

    @Test
    void aFreedCopyIsForgottenOnBothSidesAndTheMasterIsCollectedOnceTheHomeDropsItToo() throws Exception {
        long id = sendAndDrop(new int[] {1, 2, 3}, 0);
        assertEquals(1, worker.copyCount());
        awaitTombstones();
        assertEquals(0, worker.copyCount());
        assertEquals(1, worker.tombstoneCount());
        // Full collections ran, and only the worker's view holds the master.
        assertTrue(home.master(id) != null, "the view of a worker that holds a copy (a tombstone) pins the master");
        byte[] reply = home.drop(WORKER, worker.dropRequest());
        assertEquals(List.of(id), accepted(reply));
        worker.dropped(reply);
        assertEquals(0, worker.tombstoneCount());
        // Nobody at the home references the master and no view pins it any more.
        collectUntil(() -> {
            home.awaitCollected(10);
            return home.masterCount() == 0;
        });
        assertNull(home.master(id));
    }

    @Test
    void aForgottenCopyIsCarriedWholeByTheNextMessageThatNamesIt() throws Exception {
        int[] master = {1, 2, 3};
        long id = sendAndDrop(master, 0);
        awaitTombstones();
        byte[] reply = home.drop(WORKER, worker.dropRequest());
        worker.dropped(reply);
        assertEquals(List.of(id), accepted(reply));
        master[2] = 4;
        int[] again = (int[]) apply(message(master));
        assertArrayEquals(new int[] {1, 2, 4}, again);
        assertEquals(id, worker.idOf(again));
    }

    @Test
    void aDropTheHomeSeesAfterItNamedTheCopyAgainIsRefusedAndTheCopyComesBackFromItsTwin() throws Exception {
        int[] master = {1, 2, 3};
        long id = sendAndDrop(master, 99);
        awaitTombstones();
        byte[] request = worker.dropRequest();
        ProgramStores.storeInt(master, 0, 7, home::arrayWrites);
        // Written before the home reads the drop, applied by the worker after it asked.
        ByteBuffer named = message(master);
        byte[] reply = home.drop(WORKER, request);
        assertEquals(List.of(), accepted(reply));
        worker.dropped(reply);
        assertEquals(1, worker.tombstoneCount(), "a refused tombstone stays, to be asked for again");
        int[] again = (int[]) apply(named);
        // The values both sides agreed on, then the message's change; the unreleased local write is gone with the copy.
        assertArrayEquals(new int[] {7, 2, 3}, again);
        assertEquals(id, worker.idOf(again));
        assertEquals(0, worker.tombstoneCount());
        assertEquals(1, worker.copyCount());
    }

    @Test
    void aRefreshThatChangesATombstoneCountsAsNamingIt() throws Exception {
        int[] master = {1, 2, 3};
        long id = sendAndDrop(master, 0);
        awaitTombstones();
        byte[] request = worker.dropRequest();
        ProgramStores.storeInt(master, 2, 5, home::arrayWrites);
        ByteBuffer refresh = refreshOnly(); // names the array only in its changes
        byte[] reply = home.drop(WORKER, request);
        assertEquals(List.of(), accepted(reply));
        worker.dropped(reply);
        applyRefresh(refresh);
        int[] again = (int[]) worker.byId(id);
        assertArrayEquals(new int[] {1, 2, 5}, again);
        assertEquals(1, worker.copyCount());
    }

    @Test
    void aTombstoneKeepsWhatItReferencesUntilTheHomeForgetsIt() throws Exception {
        int[] inner = {4, 5};
        Object[] outer = {inner};
        long outerId = sendAndDrop(outer, 0);
        long innerId = home.idOf(inner);
        awaitTombstones();
        assertEquals(1, worker.tombstoneCount());
        assertEquals(1, worker.copyCount(), "the inner copy, kept by the outer's twin");
        byte[] request = worker.dropRequest();
        ByteBuffer named = message(outer);
        worker.dropped(home.drop(WORKER, request));
        Object[] again = (Object[]) apply(named);
        assertEquals(outerId, worker.idOf(again));
        assertEquals(innerId, worker.idOf(again[0]), "made again around the same inner copy");
        assertArrayEquals(new int[] {4, 5}, (int[]) again[0]);
        assertNotSame(inner, again[0]);
    }

    @Test
    void aMessageThatFailsLeavesNothingItExportedShared() {
        Object[] task = {new int[1], new ArrayList<String>()};
        assertThrows(UnsharableException.class, () -> home.write(WORKER, w -> w.ref(task)));
        assertEquals(0, home.idOf(task));
        assertEquals(0, home.idOf(task[0]));
        assertEquals(0, home.masterCount());
    }

    @Test
    void whatAFailedMessageExportedStaysSharedIfAnotherWorkersMessageNamedItMeanwhile() {
        int[] data = new int[1];
        Object[] task = {data, new ArrayList<String>()};
        assertThrows(UnsharableException.class, () -> home.write(WORKER, w -> {
            w.ref(data);
            home.write(3, other -> other.ref(data)); // another worker's message, written while this one is
            w.ref(task);
        }));
        assertTrue(home.idOf(data) != 0, "node 3 holds a copy of it");
        assertEquals(0, home.idOf(task));
        assertEquals(1, home.masterCount());
    }
}
