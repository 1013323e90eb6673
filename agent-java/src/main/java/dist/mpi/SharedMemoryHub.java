package dist.mpi;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * The ranks of one JVM (mpirun's threads mode): a message to another rank is handed straight to
 * that rank's messenger by the sending thread. No copy is needed: a payload is a fresh array that
 * the sender packed and never touches again. Loaded by the JVM's application class loader, so the
 * ranks, each in a class loader of its own, share it.
 */
public final class SharedMemoryHub {
    private final AtomicReferenceArray<Consumer<Message>> sinks;

    public SharedMemoryHub(int size) {
        this.sinks = new AtomicReferenceArray<>(size);
    }

    public int size() {
        return sinks.length();
    }

    /** The device of one rank; messages sent to a rank before it has attached wait for it. */
    public Device attach(int rank, Consumer<Message> sink) {
        synchronized (this) {
            sinks.set(rank, sink);
            notifyAll();
        }
        return new Device() {
            @Override
            public void send(int dest, MessageHeader header, byte[] payload) {
                sinkOf(dest).accept(new Message(header, payload));
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

    private Consumer<Message> sinkOf(int rank) {
        Consumer<Message> sink = sinks.get(rank);
        if (sink != null) {
            return sink;
        }
        synchronized (this) {
            while ((sink = sinks.get(rank)) == null) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for rank " + rank + " to start", e);
                }
            }
            return sink;
        }
    }
}
