package dev.distvm.mpi.engine;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The ranks of one JVM (mpirun's threads mode): a message to another rank is handed straight to
 * that rank's messenger by the sending thread, its payload encoded into an array of its own (the
 * one copy: the receive decodes from it into the program's buffer). Loaded by the JVM's application class loader, so the
 * ranks, each in a class loader of its own, share it.
 */
public final class SharedMemoryHub {
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
                inboxOf(dest).deliver(new Message(header, payload.toArray()));
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
