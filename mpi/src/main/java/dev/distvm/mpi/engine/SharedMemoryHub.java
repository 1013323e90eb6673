package dev.distvm.mpi.engine;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The ranks of one JVM (mpirun's threads mode): a message to another rank is handed straight to
 * that rank's messenger by the sending thread, the way a socket device hands what it reads. When a
 * posted receive matches the header, the payload goes straight into the receive's buffer: bytes
 * are copied once, from the sender's array into the receiver's; other elements are encoded into a
 * scratch buffer of the sending thread's and decoded from it a slice at a time (a slice stays in
 * the cache between the two). A message no receive waits for yet is kept in an array of its own.
 * Loaded by the JVM's application class loader, so the ranks, each in a class loader of its own,
 * share it.
 */
public final class SharedMemoryHub {
    /** A slice: large enough that a call per slice costs nothing next to its bytes, small enough for the cache. */
    private static final int SLICE_BYTES = 64 * 1024;
    /** Bytes handed first: more than {@link ReceiveBuffer#PEEK} of whole elements of any width. */
    private static final int FIRST_BYTES = 64;
    private static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(() -> ByteBuffer.allocate(SLICE_BYTES));

    private final AtomicReferenceArray<Inbox> inboxes;

    public SharedMemoryHub(int size) {
        this.inboxes = new AtomicReferenceArray<>(size);
    }

    public int size() {
        return inboxes.length();
    }

    /** The device of one rank; messages sent to a rank before it has attached wait for it. */
    Device attach(int rank, Inbox inbox) {
        synchronized (this) {
            inboxes.set(rank, inbox);
            notifyAll();
        }
        return new Device() {
            @Override
            public void send(int dest, MessageHeader header, Payload payload) {
                hand(inboxOf(dest), header, payload);
            }

            @Override
            public boolean progress(long timeoutNanos) {
                return false; // the sending thread delivers
            }

            @Override
            public void wakeup() {
                // nothing waits inside the hub
            }

            @Override
            public void close() {
                // nothing to release: the hub lives as long as the job
            }
        };
    }

    /**
     * Hands {@code payload} to {@code inbox} as a device reading it would: its first bytes (what a
     * receive looks at to take it) through the scratch buffer, then the rest straight from the
     * sender's memory when it lies there as it travels, else through the scratch buffer a slice at
     * a time.
     */
    private static void hand(Inbox inbox, MessageHeader header, Payload payload) {
        int length = payload.size();
        ByteBuffer slice = SCRATCH.get().clear().limit(FIRST_BYTES);
        int written = payload.write(0, slice);
        slice.flip();
        Inbox.Intake intake = inbox.arriving(header, length, slice);
        intake.take(slice);
        ByteBuffer rest = written < length && !slice.hasRemaining() ? payload.inPlace(written) : null;
        if (rest != null) {
            intake.take(rest);
            written = length;
        }
        while (written < length) {
            slice.compact(); // keeps the start of an element the decoder left for the next slice
            written += payload.write(written, slice);
            slice.flip();
            intake.take(slice);
        }
        intake.complete();
    }

    private Inbox inboxOf(int rank) {
        Inbox inbox = inboxes.get(rank);
        if (inbox != null) {
            return inbox;
        }
        synchronized (this) {
            while ((inbox = inboxes.get(rank)) == null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for rank " + rank + " to start", e);
                }
            }
            return inbox;
        }
    }
}
