package dev.distvm.transport;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorCode;
import dev.distvm.transport.proto.ErrorReply;
import dev.distvm.transport.proto.Kind;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The requests sent and not answered yet, by correlation id: an answer completes its request's
 * future; a lost peer, a closed endpoint or the request's timeout fails it.
 */
final class PendingRequests {
    private static final long TIMEOUT_SCAN_MILLIS = 10;

    private record Pending(CompletableFuture<Inbound> future, long deadline, String peer) {}

    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong correlations = new AtomicLong();
    private final ScheduledExecutorService timer;

    PendingRequests(String address) {
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-transport-timeouts " + address));
        timer.scheduleAtFixedRate(this::expire, TIMEOUT_SCAN_MILLIS, TIMEOUT_SCAN_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** A new request's correlation id, which its answer will carry. */
    long nextCorrelation() {
        return correlations.incrementAndGet();
    }

    void await(long correlation, CompletableFuture<Inbound> future, String peer, Duration timeout) {
        pending.put(correlation, new Pending(future, System.nanoTime() + timeout.toNanos(), peer));
    }

    /** The request could not be sent: nobody waits for its answer. */
    void forget(long correlation) {
        pending.remove(correlation);
    }

    /** Completes the request an answer (REPLY or ERROR) belongs to; one nobody waits for any more is logged. */
    void answer(Envelope envelope) {
        Pending waiting = envelope.getCorrelation() == 0 ? null : pending.remove(envelope.getCorrelation());
        if (envelope.getKind() == Kind.ERROR) {
            ErrorReply error = decodeError(envelope);
            if (waiting == null) {
                Log.warn("node " + envelope.getSender() + " refused a message: " + error.getCode() + ": " + error.getMessage());
            } else {
                waiting.future().completeExceptionally(new RemoteErrorException(error.getCode(), error.getMessage()));
            }
        } else if (envelope.getKind() == Kind.REPLY && waiting != null) {
            waiting.future().complete(new Inbound(envelope.getSender(), envelope.getType(), Kind.REPLY,
                    envelope.getCorrelation(), envelope.getBody()));
        } else {
            Log.debug("dropped a late or unexpected " + envelope.getKind() + " from node " + envelope.getSender());
        }
    }

    /** Fails the requests waiting on one peer, so that waiters learn of a lost peer at once. */
    void failPeer(String peer, String reason) {
        fail(p -> p.peer().equals(peer), p -> new TransportException(reason));
    }

    /** Fails the requests waiting on one peer with {@code failure} itself, whose type says what to do. */
    void failPeer(String peer, TransportException failure) {
        fail(p -> p.peer().equals(peer), p -> failure);
    }

    /** Fails every request still waiting and stops the timeout scan. */
    void close(String reason) {
        timer.shutdownNow();
        fail(p -> true, p -> new TransportException(reason));
    }

    private static ErrorReply decodeError(Envelope envelope) {
        try {
            return ErrorReply.parseFrom(envelope.getBody());
        } catch (InvalidProtocolBufferException e) {
            return ErrorReply.newBuilder().setCode(ErrorCode.MALFORMED).setMessage("undecodable error reply").build();
        }
    }

    private void expire() {
        if (!pending.isEmpty()) {
            long now = System.nanoTime();
            fail(p -> now - p.deadline() > 0, p -> new RequestTimeoutException("no reply from " + p.peer()
                    + " within the timeout; the peer may be dead or overloaded"));
        }
    }

    private void fail(Predicate<Pending> which, Function<Pending, TransportException> failure) {
        for (Iterator<Map.Entry<Long, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Pending p = it.next().getValue();
            if (which.test(p)) {
                it.remove();
                p.future().completeExceptionally(failure.apply(p));
            }
        }
    }
}
