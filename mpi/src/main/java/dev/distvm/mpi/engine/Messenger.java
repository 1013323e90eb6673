package dev.distvm.mpi.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One rank's message layer: sends through the device (or straight to its own matcher for
 * messages to itself), matches what arrives, keeps the acknowledgements of synchronous sends, and
 * makes the device progress while a thread of the rank waits.
 */
public final class Messenger implements Inbox, AutoCloseable {
    /** How long one progress step may wait for the network before waiters look at their futures again. */
    private static final long PROGRESS_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int rank;
    private final int size;
    private final Matcher matcher;
    private final Device device;
    private final Map<Long, CompletableFuture<Void>> awaitingMatch = new ConcurrentHashMap<>();
    /** Acknowledgements wait here: they are sent after progress, never from inside a device's receive. */
    private final Queue<MessageHeader> acknowledgements = new ConcurrentLinkedQueue<>();
    private final AtomicLong syncIds = new AtomicLong();
    private volatile RuntimeException failure;

    /** @param devices makes the device from the inbox that incoming messages must go to */
    Messenger(int rank, int size, Function<Inbox, Device> devices) {
        this.rank = rank;
        this.size = size;
        this.matcher = new Matcher(matched -> acknowledgements.add(matched.header()));
        this.device = devices.apply(this);
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    /** Standard (eager) send: done once the payload is written out or copied, after which its source may change. */
    public void send(int dest, int context, int tag, int elements, Payload payload) throws IOException {
        transmit(dest, new MessageHeader(context, rank, tag, elements, 0, 0), payload);
        sendAcknowledgements();
    }

    /** Synchronous send: the future completes when the receiver has matched the message. */
    public CompletableFuture<Void> sendSynchronous(int dest, int context, int tag, int elements, Payload payload)
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
        sendAcknowledgements();
        return matched;
    }

    /** Posts a receive; a message it matches may be decoded straight into {@code buffer} as it arrives. */
    public PostedReceive receive(int context, int source, int tag, ReceiveBuffer buffer) {
        PostedReceive receive = matcher.post(context, source, tag, buffer);
        sendAcknowledgements();
        return receive;
    }

    /** The header of a matching arrived message; with {@code block}, waits (progressing) for one. */
    public MessageHeader probe(int context, int source, int tag, boolean block) throws InterruptedException, IOException {
        poll();
        MessageHeader header = matcher.probe(context, source, tag, false);
        while (header == null && block) {
            if (!device.progress(PROGRESS_SLICE_NANOS)) {
                return matcher.probe(context, source, tag, true); // delivered by other threads: wait for it
            }
            sendAcknowledgements();
            header = matcher.probe(context, source, tag, false);
        }
        return header;
    }

    public boolean cancel(PostedReceive receive) {
        return matcher.cancel(receive);
    }

    /**
     * Waits for {@code future}, receiving meanwhile; returns its value. While the machine has a core
     * to spare the wait first spins a while, receiving without waiting ({@link SpinBeforeWaiting}):
     * a message that comes then costs no wake-up.
     */
    public <T> T await(CompletableFuture<T> future) throws InterruptedException, ExecutionException, IOException {
        try {
            if (!future.isDone() && SpinBeforeWaiting.MACHINE.admitted()) {
                spinFor(future);
            }
            while (!future.isDone() && device.progress(PROGRESS_SLICE_NANOS)) {
                sendAcknowledgements();
            }
            return future.get();
        } finally {
            sendAcknowledgements();
        }
    }

    /** Receives without waiting, again and again, until {@code future} completes or the spin's time is up. */
    private void spinFor(CompletableFuture<?> future) throws IOException {
        long deadline = System.nanoTime() + SpinBeforeWaiting.SPIN_NANOS;
        do {
            Thread.onSpinWait();
            poll();
        } while (!future.isDone() && System.nanoTime() - deadline < 0);
    }

    /** Receives what has arrived without waiting (for Test and Iprobe). */
    public void poll() throws IOException {
        device.progress(0);
        sendAcknowledgements();
    }

    /** Waits until one of {@code futures} is done, receiving meanwhile. */
    public void awaitAny(List<? extends CompletableFuture<?>> futures) throws InterruptedException, IOException {
        CompletableFuture<Object> any = CompletableFuture.anyOf(futures.toArray(CompletableFuture[]::new));
        while (!any.isDone()) {
            if (!device.progress(PROGRESS_SLICE_NANOS)) {
                try {
                    any.get();
                } catch (ExecutionException e) {
                    // the caller finds the failed future done and reports its error
                }
                break;
            }
            sendAcknowledgements();
        }
        sendAcknowledgements();
    }

    private void transmit(int dest, MessageHeader header, Payload payload) throws IOException {
        if (dest < 0 || dest >= size) {
            throw new IllegalArgumentException("rank " + dest + " is not in 0.." + (size - 1));
        }
        RuntimeException failed = failure;
        if (failed != null) {
            throw failed;
        }
        if (dest == rank) {
            deliver(new Message(header, payload.toArray()));
        } else {
            device.send(dest, header, payload);
        }
    }

    @Override
    public void deliver(Message message) {
        if (message.header().is(MessageHeader.ACKNOWLEDGEMENT)) {
            CompletableFuture<Void> matched = awaitingMatch.remove(message.header().syncId());
            if (matched != null) {
                matched.complete(null);
            }
        } else {
            matcher.arrived(message);
        }
    }

    @Override
    public Inbox.Intake arriving(MessageHeader header, int length, ByteBuffer first) {
        PostedReceive receive = header.is(MessageHeader.ACKNOWLEDGEMENT) ? null : matcher.claim(header);
        ReceiveBuffer.Decoder decoder = receive == null || receive.buffer == null ? null : receive.buffer.open(length, first);
        return new Arrival(this, header, receive, decoder, length);
    }

    /** The message that {@code receive} was matched with on its header's arrival is complete. */
    void landed(PostedReceive receive, Message message) {
        matcher.landed(receive, message);
    }

    /** Tells the senders of matched synchronous messages; outside any device receive, so frames stay whole. */
    private void sendAcknowledgements() {
        for (MessageHeader sent; (sent = acknowledgements.poll()) != null; ) {
            try {
                transmit(sent.source(), new MessageHeader(sent.context(), rank, sent.tag(), 0,
                        MessageHeader.ACKNOWLEDGEMENT, sent.syncId()), Payload.EMPTY);
            } catch (IOException | RuntimeException e) {
                // the sender is gone; its own failure handling reports it
            }
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
        device.wakeup();
    }

    @Override
    public void close() {
        device.close();
    }

    /** Wraps a device constructor that may fail on I/O, for {@link #Messenger}. */
    public static Device opened(DeviceOpener opener) {
        try {
            return opener.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A device constructor that may fail on I/O. */
    public interface DeviceOpener {
        Device open() throws IOException;
    }
}
