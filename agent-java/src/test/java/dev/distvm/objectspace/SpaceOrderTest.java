package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A home and a worker space in one JVM, messages handed over as bytes: the home's messages are
 * applied in their order whichever thread holds them, and a worker's release, which travels
 * without waiting, is never undone by a message the home wrote before it applied that release.
 */
class SpaceOrderTest {
    private static final int WORKER = 2;
    private static final ClassLoader LOADER = SpaceOrderTest.class.getClassLoader();

    private final HomeSpace home = new HomeSpace(1, LOADER);
    private final WorkerSpace worker = new WorkerSpace(() -> WORKER, LOADER);

    /** What the home sends: the array named (whole, the first time) and what changed since the last message. */
    private ByteBuffer message(int[] master) {
        return delivered(home.write(WORKER, w -> {
            w.ref(master);
            home.writeRefresh(WORKER, w);
        }));
    }

    private void storeAtHome(int[] master, int index, int value) {
        ProgramStores.storeInt(master, index, value, home::arrayWrites);
    }

    private void storeOnWorker(int[] copy, int index, int value) {
        ProgramStores.storeInt(copy, index, value, worker::arrayWrites);
    }

    /** A message's bytes as the receiver gets them from the transport. */
    private static ByteBuffer delivered(WireBuffer sent) {
        return ByteBuffer.wrap(sent.toByteArray()).asReadOnlyBuffer();
    }

    private int[] apply(ByteBuffer message) {
        return worker.receive(message, (reader, acknowledged) -> {
            int[] copy = (int[]) reader.ref();
            worker.applyChanges(reader, acknowledged);
            return copy;
        });
    }

    @Test
    void aMessageThatArrivesFirstWaitsForTheOneBeforeIt() throws Exception {
        int[] master = new int[4];
        master[0] = 1;
        ByteBuffer first = message(master); // carries the array whole
        storeAtHome(master, 1, 2);
        ByteBuffer second = message(master); // carries only the change
        AtomicReference<Object> applied = new AtomicReference<>();
        Thread early = new Thread(() -> {
            try {
                applied.set(apply(second));
            } catch (RuntimeException e) {
                applied.set(e);
            }
        });
        early.start();
        while (early.getState() != Thread.State.WAITING && early.isAlive()) {
            Thread.onSpinWait();
        }
        assertNull(applied.get(), "the later message was applied before the earlier one");
        int[] copy = apply(first);
        early.join();
        assertSame(copy, applied.get());
        assertArrayEquals(new int[] {1, 2, 0, 0}, copy);
    }

    @Test
    void aMessageWrittenBeforeTheHomeAppliedAReleaseDoesNotUndoIt() {
        int[] master = new int[4];
        int[] copy = apply(message(master));
        storeOnWorker(copy, 2, 7); // the worker's write, released without waiting
        List<ByteBuffer> sent = new ArrayList<>();
        worker.release(w -> { }, m -> sent.add(delivered(m)));
        storeAtHome(master, 2, 5); // a home thread's write, older than the release, which the home has not applied yet
        storeAtHome(master, 3, 9);
        ByteBuffer beforeRelease = message(master);
        home.applyRelease(WORKER, home.read(WORKER, sent.get(0)));
        apply(beforeRelease);
        assertArrayEquals(new int[] {0, 0, 7, 9}, copy, "the release's element kept, the other taken");
        assertArrayEquals(new int[] {0, 0, 7, 9}, master);
        storeAtHome(master, 2, 8); // written at the home after it applied the release: this one arrives
        apply(message(master));
        assertEquals(8, copy[2]);
    }

    @Test
    void anObjectSharedUnderAnotherNodesIdIsRefused() {
        WorkerSpace impostor = new WorkerSpace(() -> 3, LOADER); // speaks as node 2, numbers as node 3
        Object[] master = new Object[1];
        Object[] copy = impostor.receive(delivered(home.write(WORKER, w -> w.ref(master))), (reader, acknowledged) ->
                (Object[]) reader.ref());
        ArrayStores.useRegistry(impostor::arrayWrites);
        copy[0] = new int[1]; // the worker's own array: the release shares it under the worker's id
        Hooks.arrayStored(copy, 0);
        List<ByteBuffer> sent = new ArrayList<>();
        impostor.release(w -> { }, m -> sent.add(delivered(m)));
        IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> home.read(WORKER, sent.get(0)));
        assertEquals(true, refused.getMessage().contains("that id is node 3's"), refused.getMessage());
    }

    @Test
    void releasesOutOfOrderAreRefused() {
        int[] copy = apply(message(new int[2]));
        List<ByteBuffer> sent = new ArrayList<>();
        storeOnWorker(copy, 0, 1);
        worker.release(w -> { }, m -> sent.add(delivered(m)));
        storeOnWorker(copy, 0, 2);
        worker.release(w -> { }, m -> sent.add(delivered(m)));
        IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> home.applyRelease(WORKER, home.read(WORKER, sent.get(1))));
        assertEquals(true, refused.getMessage().contains("release 2 after release 0"), refused.getMessage());
    }
}
