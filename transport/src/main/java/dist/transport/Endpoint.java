package dist.transport;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import dist.common.DaemonThreads;
import dist.common.Log;
import dist.transport.proto.Envelope;
import dist.transport.proto.ErrorCode;
import dist.transport.proto.ErrorReply;
import dist.transport.proto.Kind;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One node's place on the network. It listens on a TCP port; it opens one connection to each peer
 * it sends to, on which that peer answers. The sending thread writes its frame itself, and one
 * reader thread per connection receives; nothing else stands between a message and the socket
 * (see docs/ARCHITECTURE.md, "Transport", for why this is not a ZeroMQ socket).
 *
 * <p>Incoming envelopes are checked in this order: decodable, protocol version, cluster token,
 * kind, type. The first failure is answered with an ERROR envelope and a log line; the connection
 * goes on serving. A frame whose length is out of bounds is answered the same way, and then the
 * connection is closed, since the stream can no longer be trusted.
 *
 * <p>Handlers and the callbacks of futures returned by {@link #request} run on reader threads:
 * they must not block (use the {@code *Async} variants to leave them).
 */
public final class Endpoint implements AutoCloseable {
    public static final int PROTOCOL_VERSION = 1;

    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    private static final long TIMEOUT_SCAN_MILLIS = 10;

    private final TransportConfig config;
    private final ServerSocketChannel listener;
    private final String address;
    private final Map<Integer, Handler> handlers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, Pending> pending = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Outbound> outbound = new ConcurrentHashMap<>();
    private final Set<Connection> inbound = ConcurrentHashMap.newKeySet();
    private final AtomicLong correlations = new AtomicLong();
    private final TransportCounters counters = new TransportCounters();
    private final ScheduledExecutorService timer;
    private final Thread acceptor;
    private volatile int nodeId;
    private volatile boolean open = true;

    private record Pending(CompletableFuture<Inbound> future, long deadline, String peer, int type) {}

    /** Marks the threads that must never block on the network: they are the ones that would answer. */
    private static final class ReaderThread extends Thread {
        ReaderThread(Runnable body, String name) {
            super(body, name);
            setDaemon(true);
        }
    }

    private Endpoint(TransportConfig config) throws IOException {
        this.config = config;
        InetSocketAddress bindTo = socketAddress(config.bindAddress());
        this.listener = ServerSocketChannel.open();
        listener.bind(bindTo);
        InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
        this.address = "tcp://" + bound.getAddress().getHostAddress() + ":" + bound.getPort();
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("dist-transport-timeouts " + address));
        timer.scheduleAtFixedRate(this::expireTimeouts, TIMEOUT_SCAN_MILLIS, TIMEOUT_SCAN_MILLIS, TimeUnit.MILLISECONDS);
        this.acceptor = new ReaderThread(this::accept, "dist-transport-accept " + address);
        acceptor.start();
    }

    /** Binds a new endpoint and starts accepting connections. */
    public static Endpoint open(TransportConfig config) {
        try {
            return new Endpoint(config);
        } catch (IOException e) {
            throw new TransportException("cannot listen on " + config.bindAddress() + ": " + e.getMessage()
                    + " (is the port in use? give another address, or port 0 for a free one)", e);
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

    /** The address peers send to, e.g. {@code tcp://127.0.0.1:40123}. */
    public String address() {
        return address;
    }

    public int nodeId() {
        return nodeId;
    }

    /** Set once the coordinator has assigned this node its id; stamped on every envelope after. */
    public void nodeId(int id) {
        this.nodeId = id;
    }

    public TransportCounters counters() {
        return counters;
    }

    /** Registers the handler of a message type; a type has at most one handler. */
    public void register(int type, Handler handler) {
        if (handlers.putIfAbsent(type, handler) != null) {
            throw new IllegalStateException("type " + type + " has a handler already");
        }
    }

    /** Removes the handler of a message type, if any: its messages are answered UNKNOWN_TYPE again. */
    public void unregister(int type) {
        handlers.remove(type);
    }

    /** Registers a handler that answers at once. */
    public void registerImmediate(int type, Handler.Immediate handler) {
        register(type, message -> CompletableFuture.completedFuture(handler.handle(message)));
    }

    /** Sends a request; the future completes with the reply, or fails on error reply, lost peer or timeout. */
    public CompletableFuture<Inbound> request(String peer, int type, MessageLite body, Duration timeout) {
        long correlation = correlations.incrementAndGet();
        CompletableFuture<Inbound> future = new CompletableFuture<>();
        try {
            byte[] frame = frame(Kind.REQUEST, correlation, type, body.toByteString());
            pending.put(correlation, new Pending(future, System.nanoTime() + timeout.toNanos(), peer, type));
            deliver(peer, frame);
        } catch (RuntimeException e) {
            pending.remove(correlation);
            future.completeExceptionally(e);
        }
        return future;
    }

    public CompletableFuture<Inbound> request(String peer, int type, MessageLite body) {
        return request(peer, type, body, config.requestTimeout());
    }

    /** Sends a request and waits for its reply, decoded with {@code replyParser}. */
    public <T> T call(String peer, int type, MessageLite body, Parser<T> replyParser, Duration timeout) {
        if (Thread.currentThread() instanceof ReaderThread) {
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
        deliver(peer, frame(Kind.ONE_WAY, 0, type, body.toByteString()));
    }

    /**
     * Forgets a peer: closes the connection to it and fails the requests still waiting on it, so
     * that waiters learn of a dead peer at once instead of at their timeout.
     */
    public void disconnect(String peer) {
        Outbound lost = outbound.remove(peer);
        if (lost != null) {
            lost.close();
        }
        failPending(p -> p.peer().equals(peer), "peer " + peer + " was disconnected");
    }

    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            listener.close();
            // The port is released only when the thread blocked in accept() has left it.
            if (Thread.currentThread() != acceptor) {
                acceptor.join(1_000);
            }
        } catch (IOException e) {
            // closing: nothing left to do with the socket
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        outbound.values().forEach(Outbound::close);
        outbound.clear();
        inbound.forEach(Connection::close);
        inbound.clear();
        timer.shutdownNow();
        failPending(p -> true, "endpoint " + address + " closed");
    }

    // ---- sending ------------------------------------------------------------------------------

    /** An envelope with its 4-byte length prefix, ready for the socket. */
    private byte[] frame(Kind kind, long correlation, int type, ByteString body) {
        Envelope envelope = Envelope.newBuilder()
                .setVersion(PROTOCOL_VERSION)
                .setCluster(config.secret().token())
                .setSender(nodeId)
                .setCorrelation(correlation)
                .setType(type)
                .setKind(kind)
                .setBody(body)
                .build();
        int size = envelope.getSerializedSize();
        if (size > config.maxFrameBytes()) {
            throw new TransportException("message of type " + type + " is " + size
                    + " bytes, more than the frame limit of " + config.maxFrameBytes());
        }
        byte[] frame = new byte[4 + size];
        frame[0] = (byte) (size >>> 24);
        frame[1] = (byte) (size >>> 16);
        frame[2] = (byte) (size >>> 8);
        frame[3] = (byte) size;
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(frame, 4, size);
            envelope.writeTo(out);
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("envelope did not fill its own serialized size", e);
        }
        return frame;
    }

    private void deliver(String peer, byte[] frame) {
        if (!open) {
            throw new TransportException("endpoint " + address + " is closed");
        }
        Outbound target = outbound.computeIfAbsent(peer, Outbound::new);
        try {
            target.connection().send(frame);
        } catch (IOException e) {
            target.lost(e);
            throw new TransportException("cannot reach " + peer + ": " + e.getMessage(), e);
        }
        counted(frame.length);
    }

    private void counted(int bytes) {
        counters.messagesSent.increment();
        counters.bytesSent.add(bytes);
    }

    private void reply(Connection connection, byte[] frame) {
        try {
            connection.send(frame);
            counted(frame.length);
        } catch (IOException e) {
            Log.debug("could not answer " + connection.peer() + ": " + e.getMessage());
            connection.close();
        }
    }

    /** The connection this endpoint opened to one peer; reopened on the next send after a loss. */
    private final class Outbound {
        private final String peer;
        private Connection connection;

        Outbound(String peer) {
            this.peer = peer;
        }

        synchronized Connection connection() throws IOException {
            if (connection == null || connection.isClosed()) {
                SocketChannel channel = SocketChannel.open();
                try {
                    channel.socket().connect(socketAddress(peer), CONNECT_TIMEOUT_MILLIS);
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    FrameChannel frames = new FrameChannel(channel, config.maxFrameBytes());
                    frames.writeMagic();
                    Connection opened = new Connection(peer, frames);
                    new ReaderThread(() -> readAnswers(opened, this), "dist-transport-out " + peer).start();
                    connection = opened;
                } catch (IOException | RuntimeException e) {
                    channel.close();
                    throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                }
            }
            return connection;
        }

        /** The connection broke: waiters on this peer fail now, the next send reconnects. */
        void lost(Exception cause) {
            Connection broken;
            synchronized (this) {
                broken = connection;
                connection = null;
            }
            if (broken != null) {
                broken.close();
            }
            failPending(p -> p.peer().equals(peer), (broken == null ? "cannot reach " + peer : "connection to " + peer
                    + " lost") + ": " + cause.getMessage());
        }

        synchronized void close() {
            if (connection != null) {
                connection.close();
            }
        }
    }

    // ---- receiving ----------------------------------------------------------------------------

    private void accept() {
        while (open) {
            SocketChannel channel;
            try {
                channel = listener.accept();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                if (open) {
                    Log.warn("endpoint " + address + " stopped accepting connections: " + e);
                }
                return;
            }
            String peer = String.valueOf(channel.socket().getRemoteSocketAddress());
            Connection connection = new Connection(peer, new FrameChannel(channel, config.maxFrameBytes()));
            inbound.add(connection);
            new ReaderThread(() -> readRequests(connection), "dist-transport-in " + peer).start();
        }
    }

    /** Reader of a connection a peer opened: requests and one-way messages. */
    private void readRequests(Connection connection) {
        try {
            if (!connection.frames().readMagic()) {
                counters.rejected.increment();
                Log.warn("closed a connection from " + connection.peer() + " that does not speak dist");
                return;
            }
            while (open) {
                byte[] frame = connection.frames().read();
                counters.messagesReceived.increment();
                counters.bytesReceived.add(frame.length + 4L);
                onIncoming(connection, frame);
            }
        } catch (FrameChannel.FrameTooLargeException e) {
            reject(connection, 0, ErrorCode.MALFORMED, e.getMessage() + "; closing the connection");
        } catch (EOFException | ClosedChannelException e) {
            // the peer went away or this endpoint closed: the normal end of a connection
        } catch (IOException e) {
            Log.debug("connection from " + connection.peer() + " ended: " + e.getMessage());
        } finally {
            inbound.remove(connection);
            connection.close();
        }
    }

    /** Reader of a connection this endpoint opened: replies and errors. */
    private void readAnswers(Connection connection, Outbound owner) {
        try {
            while (open) {
                byte[] frame = connection.frames().read();
                counters.messagesReceived.increment();
                counters.bytesReceived.add(frame.length + 4L);
                onAnswer(frame);
            }
        } catch (IOException e) {
            if (open && !connection.isClosed()) {
                owner.lost(e);
            }
        }
    }

    private void onIncoming(Connection connection, byte[] frame) {
        Envelope envelope;
        try {
            envelope = Envelope.parseFrom(frame);
        } catch (InvalidProtocolBufferException e) {
            reject(connection, 0, ErrorCode.MALFORMED, "frame of " + frame.length + " bytes is not a dist envelope");
            return;
        }
        long correlation = envelope.getCorrelation();
        if (envelope.getVersion() != PROTOCOL_VERSION) {
            reject(connection, correlation, ErrorCode.VERSION_MISMATCH, "protocol version " + envelope.getVersion()
                    + " is not spoken here (this node speaks " + PROTOCOL_VERSION + "); run the same dist.jar on every node");
            return;
        }
        if (envelope.getCluster() != config.secret().token()) {
            reject(connection, correlation, ErrorCode.WRONG_CLUSTER, "wrong cluster secret from node "
                    + envelope.getSender() + "; start every node with the same " + ClusterSecret.ENV);
            return;
        }
        Kind kind = envelope.getKind();
        if (kind != Kind.REQUEST && kind != Kind.ONE_WAY) {
            reject(connection, correlation, ErrorCode.MALFORMED, kind + " sent as a request");
            return;
        }
        Handler handler = handlers.get(envelope.getType());
        if (handler == null) {
            reject(connection, correlation, ErrorCode.UNKNOWN_TYPE, "this node does not handle that kind of message (is it running the same version of dist?)");
            return;
        }
        Inbound message = new Inbound(envelope.getSender(), envelope.getType(), kind, correlation, envelope.getBody());
        CompletionStage<? extends MessageLite> answer;
        try {
            answer = handler.handle(message);
            if (answer == null) {
                throw new IllegalStateException("the handler returned no CompletionStage");
            }
        } catch (Exception e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((reply, failure) -> answer(connection, message, reply, failure));
    }

    private void answer(Connection connection, Inbound message, MessageLite reply, Throwable failure) {
        if (failure instanceof CompletionException && failure.getCause() != null) {
            failure = failure.getCause();
        }
        if (failure == null && message.kind() == Kind.REQUEST) {
            ByteString body = reply == null ? ByteString.EMPTY : reply.toByteString();
            try {
                reply(connection, frame(Kind.REPLY, message.correlation(), message.type(), body));
                return;
            } catch (TransportException tooLarge) {
                failure = tooLarge; // the requester hears why instead of waiting for its timeout
            }
        }
        if (failure != null) {
            ErrorCode code = failure instanceof Handler.RefusedException ? ErrorCode.REFUSED
                    : failure instanceof Inbound.BadBodyException ? ErrorCode.BAD_BODY
                    : ErrorCode.HANDLER_FAILED;
            String text = code == ErrorCode.HANDLER_FAILED ? failure.toString() : failure.getMessage();
            reject(connection, message.correlation(), code, text);
        }
    }

    private void reject(Connection connection, long correlation, ErrorCode code, String text) {
        counters.rejected.increment();
        Log.warn("refused a message from " + connection.peer() + ": " + code + ": " + text);
        ErrorReply error = ErrorReply.newBuilder().setCode(code).setMessage(text).build();
        reply(connection, frame(Kind.ERROR, correlation, 0, error.toByteString()));
    }

    private void onAnswer(byte[] frame) {
        Envelope envelope;
        try {
            envelope = Envelope.parseFrom(frame);
        } catch (InvalidProtocolBufferException e) {
            Log.warn("dropped an undecodable answer of " + frame.length + " bytes");
            return;
        }
        // An error is believed whatever its token and version: it is how a peer of another
        // cluster or version tells this node what is wrong. A reply must be of this cluster.
        if (envelope.getKind() != Kind.ERROR
                && (envelope.getCluster() != config.secret().token() || envelope.getVersion() != PROTOCOL_VERSION)) {
            Log.warn("dropped an answer from another cluster or protocol version (node " + envelope.getSender() + ")");
            return;
        }
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

    private static ErrorReply decodeError(Envelope envelope) {
        try {
            return ErrorReply.parseFrom(envelope.getBody());
        } catch (InvalidProtocolBufferException e) {
            return ErrorReply.newBuilder().setCode(ErrorCode.MALFORMED).setMessage("undecodable error reply").build();
        }
    }

    private void expireTimeouts() {
        if (!pending.isEmpty()) {
            long now = System.nanoTime();
            failPending(p -> now - p.deadline() > 0, null);
        }
    }

    private void failPending(Predicate<Pending> which, String reason) {
        for (Iterator<Map.Entry<Long, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Pending p = it.next().getValue();
            if (which.test(p)) {
                it.remove();
                p.future().completeExceptionally(reason != null ? new TransportException(reason)
                        : new RequestTimeoutException("no reply from " + p.peer()
                                + " within the timeout; the peer may be dead or overloaded"));
            }
        }
    }
}
