package dist.mpi;

import java.io.IOException;

/**
 * Moves messages between the ranks of a job: sockets between processes, or direct hand-over
 * between the threads of one JVM. A device delivers what it receives to the {@link Messenger}
 * it was given and knows nothing of datatypes, communicators or matching.
 */
public interface Device extends AutoCloseable {
    /** Sends to rank {@code dest} (never this rank: the messenger keeps those local). */
    void send(int dest, MessageHeader header, byte[] payload) throws IOException;

    @Override
    void close();
}
