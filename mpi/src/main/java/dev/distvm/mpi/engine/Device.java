package dev.distvm.mpi.engine;

import java.io.IOException;

/**
 * Moves messages between the ranks of a job: sockets between processes, or direct hand-over
 * between the threads of one JVM. A device hands what it receives to the inbox it was given
 * and knows nothing of datatypes, communicators or matching.
 */
public interface Device extends AutoCloseable {
    /**
     * Sends to rank {@code dest} (never this rank: the messenger keeps those local). When this
     * returns the payload has been read, so its source may change.
     */
    void send(int dest, MessageHeader header, Payload payload) throws IOException;

    /**
     * Makes progress on the calling thread: receives what has arrived, waiting up to
     * {@code timeoutNanos} for something to arrive (0: do not wait). A device whose messages are
     * delivered without help (the shared-memory hub) returns false at once, and callers wait on
     * their futures instead.
     */
    boolean progress(long timeoutNanos) throws IOException;

    /** Ends a {@link #progress} wait early (the job is failing). */
    void wakeup();

    @Override
    void close();
}
