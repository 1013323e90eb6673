package dev.distvm.transport;

import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import dev.distvm.transport.EnvelopeFrames.Frame;
import dev.distvm.transport.proto.Kind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.LongFunction;

/**
 * One node's place on the network. It listens on a TCP port; it opens one connection to each peer
 * it sends to, on which that peer answers. The sending thread writes its frame itself, and one
 * reader thread per connection receives; nothing else stands between a message and the socket
 * (see docs/ARCHITECTURE.md, "Transport", for why this is not a ZeroMQ socket).
 *
 * <p>Every connection starts with a mutual proof of the cluster secret ({@link Handshake}); a
 * peer that fails it is told so in a fixed text and disconnected, and nothing it sent is read as
 * an envelope. Connections are encrypted and authenticated (AES-CTR, then HMAC-SHA256) under per-connection keys ({@link FrameCipher})
 * when either side asks: a side asks when its config says so or when it binds, or opens a connection
 * to, an address that is not loopback. Incoming envelopes are then checked in this order: decodable, protocol version, kind, type. The first failure is answered with an ERROR envelope and a log line; the connection
 * goes on serving. A frame whose length is out of bounds is answered the same way, and then the
 * connection is closed, since the stream can no longer be trusted.
 *
 * <p>Handlers and the callbacks of futures returned by {@link #request} run on reader threads:
 * they must not block (use the {@code *Async} variants to leave them).
 */
public final class Endpoint implements AutoCloseable {
    public static final int PROTOCOL_VERSION = 2;
    /** Opens every connection's {@link Handshake}: a stray client (HTTP, a port scanner) is recognised at once. */
    public static final String HANDSHAKE_MAGIC = "dst2";

    private final TransportConfig config;
    private final String address;
    private final boolean encrypted;
    private final TransportCounters counters = new TransportCounters();
    private final EnvelopeFrames frames;
    private final PendingRequests pending;
    private final Responder responder;
    private final Receivers receivers;
    private final OutboundConnections outbound;
    private volatile boolean open = true;

    private Endpoint(TransportConfig config, Listening listening) throws IOException {
        this.config = config;
        this.address = listening.address();
        InetSocketAddress bound = listening.bound();
        // Off loopback, traffic crosses a network: every connection is encrypted, whatever the peer asks.
        this.encrypted = config.encrypt() || !bound.getAddress().isLoopbackAddress();
        this.frames = new EnvelopeFrames(config);
        this.pending = new PendingRequests(address);
        this.responder = new Responder(frames, counters);
        this.receivers = new Receivers(listening.channel(), address, config, encrypted, counters, new InboundChecks(),
                responder, pending);
        this.outbound = new OutboundConnections(config, encrypted, receivers, pending);
        receivers.start();
    }

    /**
     * A socket bound to an endpoint's address and the address it will advertise, before the
     * endpoint exists: peers that connect meanwhile wait in the kernel's backlog. It lets a node
     * start others that need its address before it has built the rest of itself.
     */
    public record Listening(ServerSocketChannel channel, String address) {
        InetSocketAddress bound() throws IOException {
            return (InetSocketAddress) channel.getLocalAddress();
        }
    }

    /** Binds {@code config}'s address; {@link #open(TransportConfig, Listening)} makes the endpoint. */
    public static Listening listen(TransportConfig config) {
        ServerSocketChannel listener = null;
        try {
            listener = ServerSocketChannel.open();
            listener.bind(socketAddress(config.bindAddress()));
            return new Listening(listener, TcpAddress.advertised(config.bindAddress(),
                    (InetSocketAddress) listener.getLocalAddress(), config.advertisedAddress()));
        } catch (IOException e) {
            closeQuietly(listener);
            throw new TransportException("cannot listen on " + config.bindAddress() + ": " + e.getMessage()
                    + " (is the port in use? give another address, or port 0 for a free one)", e);
        } catch (RuntimeException e) {
            closeQuietly(listener); // a malformed or unadvertisable address: its message says which
            throw e;
        }
    }

    /** Binds a new endpoint and starts accepting connections. */
    public static Endpoint open(TransportConfig config) {
        return open(config, listen(config));
    }

    /** Starts accepting connections on a socket {@link #listen} bound for {@code config}. */
    public static Endpoint open(TransportConfig config, Listening listening) {
        try {
            return new Endpoint(config, listening);
        } catch (IOException e) {
            closeQuietly(listening.channel());
            throw new TransportException("cannot serve " + listening.address() + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(ServerSocketChannel listener) {
        if (listener != null) {
            try {
                listener.close();
            } catch (IOException e) {
                // it was never in use
            }
        }
    }

    static InetSocketAddress socketAddress(String address) {
        if (!address.startsWith("tcp://")) {
            throw new IllegalArgumentException("address must look like tcp://HOST:PORT, got '" + address + "'");
        }
        String hostPort = address.substring("tcp://".length());
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("address must look like tcp://HOST:PORT, got '" + address + "'");
        }
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("address must look like tcp://HOST:PORT with a port up to 65535, got '"
                    + address + "'", e);
        }
    }

    /** The address peers send to, e.g. {@code tcp://127.0.0.1:40123}: the bound one unless told to advertise another. */
    public String address() {
        return address;
    }

    /** Whether this endpoint asks every connection it opens or accepts to be encrypted. */
    public boolean encrypted() {
        return encrypted;
    }

    public int nodeId() {
        return frames.nodeId();
    }

    /** Set once the coordinator has assigned this node its id; stamped on every envelope after. */
    public void nodeId(int id) {
        frames.nodeId(id);
    }

    public TransportCounters counters() {
        return counters;
    }

    /** Registers the handler of a message type; a type has at most one handler. */
    public void register(int type, Handler handler) {
        responder.register(type, handler);
    }

    /** Removes the handler of a message type, if any: its messages are answered UNKNOWN_TYPE again. */
    public void unregister(int type) {
        responder.unregister(type);
    }

    /** Registers the handler of a message type whose bodies are raw bytes; a type has at most one handler. */
    public void registerRaw(int type, Handler.Raw handler) {
        responder.register(type, handler);
    }

    /** Registers a handler that answers at once. */
    public void registerImmediate(int type, Handler.Immediate handler) {
        register(type, message -> CompletableFuture.completedFuture(handler.handle(message)));
    }

    /** Sends a request; the future completes with the reply, or fails on error reply, lost peer or timeout. */
    public CompletableFuture<Inbound> request(String peer, int type, MessageLite body, Duration timeout) {
        return request(peer, timeout, correlation -> frames.frame(Kind.REQUEST, correlation, type, body));
    }

    /**
     * Sends a request whose body is raw bytes, written to the socket from the buffer itself; the
     * buffer may be reused when this returns. The reply's bytes are {@link Inbound#bodyBuffer()}.
     */
    public CompletableFuture<Inbound> request(String peer, int type, WireBuffer body, Duration timeout) {
        return request(peer, timeout, correlation -> frames.frame(Kind.REQUEST, correlation, type, body));
    }

    public CompletableFuture<Inbound> request(String peer, int type, MessageLite body) {
        return request(peer, type, body, config.requestTimeout());
    }

    /** Sends a request and waits for its reply, decoded with {@code replyParser}. */
    public <T> T call(String peer, int type, MessageLite body, Parser<T> replyParser, Duration timeout) {
        if (Receivers.onReaderThread()) {
            throw new IllegalStateException("a blocking call from a transport reader thread could wait for itself");
        }
        try {
            return request(peer, type, body, timeout).get().decode(replyParser);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TransportException te) {
                throw te;
            }
            throw new TransportException("request of type " + type + " to " + peer + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while waiting for " + peer, e);
        }
    }

    public <T> T call(String peer, int type, MessageLite body, Parser<T> replyParser) {
        return call(peer, type, body, replyParser, config.requestTimeout());
    }

    /**
     * Sends a one-way message. Messages from one endpoint to one peer arrive in the order sent.
     *
     * @throws TransportException when the peer cannot be reached
     */
    public void send(String peer, int type, MessageLite body) {
        deliver(peer, frames.frame(Kind.ONE_WAY, 0, type, body));
    }

    /**
     * Sends a one-way message whose body is raw bytes, written to the socket from the buffer
     * itself; the buffer may be reused when this returns. Ordered with every other send to the peer.
     *
     * @throws TransportException when the peer cannot be reached
     */
    public void send(String peer, int type, WireBuffer body) {
        deliver(peer, frames.frame(Kind.ONE_WAY, 0, type, body));
    }

    /**
     * Opens the connection to {@code peer} now, sending nothing, if none is open: called off the
     * path of any message, so that the first one to the peer does not wait for the handshake. A
     * failure is reported by the next message to the peer, which tries again.
     */
    public void openConnection(String peer) {
        if (open) {
            outbound.open(peer);
        }
    }

    /**
     * Forgets a peer: closes the connection to it and fails the requests still waiting on it, so
     * that waiters learn of a dead peer at once instead of at their timeout.
     */
    public void disconnect(String peer) {
        outbound.disconnect(peer);
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        receivers.close();
        outbound.close();
        receivers.closeInbound();
        pending.close("endpoint " + address + " closed");
    }

    private CompletableFuture<Inbound> request(String peer, Duration timeout, LongFunction<Frame> frameFor) {
        long correlation = pending.nextCorrelation();
        CompletableFuture<Inbound> future = new CompletableFuture<>();
        try {
            Frame frame = frameFor.apply(correlation);
            pending.await(correlation, future, peer, timeout);
            deliver(peer, frame);
        } catch (RuntimeException e) {
            pending.forget(correlation);
            future.completeExceptionally(e);
        }
        return future;
    }

    private void deliver(String peer, Frame frame) {
        if (!open) {
            throw new TransportException("endpoint " + address + " is closed");
        }
        outbound.send(peer, frame);
        counters.sent(frame.length());
    }
}
