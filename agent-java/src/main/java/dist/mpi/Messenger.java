package dist.mpi;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One rank's message layer: sends through the device (or straight to its own matcher for
 * messages to itself), matches what arrives, and keeps the acknowledgements of synchronous sends.
 */
public final class Messenger implements AutoCloseable {
    private final int rank;
    private final int size;
    private final Matcher matcher;
    private final Device device;
    private final Map<Long, CompletableFuture<Void>> awaitingMatch = new ConcurrentHashMap<>();
    private final AtomicLong syncIds = new AtomicLong();
    private volatile RuntimeException failure;

    /** @param devices makes the device from the sink that incoming messages must go to */
    public Messenger(int rank, int size, Function<java.util.function.Consumer<Message>, Device> devices) {
        this.rank = rank;
        this.size = size;
        this.matcher = new Matcher(this::acknowledge);
        this.device = devices.apply(this::deliver);
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /** Standard (eager) send: done once the payload is handed over; the payload must not be reused. */
    public void send(int dest, int context, int tag, int elements, byte[] payload) throws IOException {
        transmit(dest, new MessageHeader(context, rank, tag, elements, 0, 0), payload);
    }

    /** Synchronous send: the future completes when the receiver has matched the message. */
    public CompletableFuture<Void> sendSynchronous(int dest, int context, int tag, int elements, byte[] payload)
            throws IOException {
        long id = syncIds.incrementAndGet();
        CompletableFuture<Void> matched = new CompletableFuture<>();
        awaitingMatch.put(id, matched);
        RuntimeException failed = failure;
        if (failed != null) {
            matched.completeExceptionally(failed);
            return matched;
        }
        transmit(dest, new MessageHeader(context, rank, tag, elements, MessageHeader.SYNCHRONOUS, id), payload);
        return matched;
    }

    public PostedReceive receive(int context, int source, int tag) {
        return matcher.post(context, source, tag);
    }

    public MessageHeader probe(int context, int source, int tag, boolean block) throws InterruptedException {
        return matcher.probe(context, source, tag, block);
    }

    public boolean cancel(PostedReceive receive) {
        return matcher.cancel(receive);
    }

    private void transmit(int dest, MessageHeader header, byte[] payload) throws IOException {
        if (dest < 0 || dest >= size) {
            throw new IllegalArgumentException("rank " + dest + " is not in 0.." + (size - 1));
        }
        RuntimeException failed = failure;
        if (failed != null) {
            throw failed;
        }
        if (dest == rank) {
            deliver(new Message(header, payload));
        } else {
            device.send(dest, header, payload);
        }
    }

    /** Everything the device receives comes here. */
    void deliver(Message message) {
        if (message.header().is(MessageHeader.ACKNOWLEDGEMENT)) {
            CompletableFuture<Void> matched = awaitingMatch.remove(message.header().syncId());
            if (matched != null) {
                matched.complete(null);
            }
        } else {
            matcher.arrived(message);
        }
    }

    private void acknowledge(Message matched) {
        MessageHeader sent = matched.header();
        try {
            transmit(sent.source(), new MessageHeader(sent.context(), rank, sent.tag(), 0,
                    MessageHeader.ACKNOWLEDGEMENT, sent.syncId()), new byte[0]);
        } catch (IOException | RuntimeException e) {
            // the sender is gone; its own failure handling reports it
        }
    }

    /**
     * A rank died: the job is failing, and every operation in progress or to come fails with
     * {@code reason} instead of waiting for a message that cannot come.
     */
    public void fail(String reason) {
        RuntimeException cause = new IllegalStateException(reason);
        failure = cause;
        awaitingMatch.values().forEach(f -> f.completeExceptionally(cause));
        awaitingMatch.clear();
        matcher.fail(cause);
    }

    @Override
    public void close() {
        device.close();
    }
}
