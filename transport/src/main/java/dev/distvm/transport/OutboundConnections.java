package dev.distvm.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The connections this endpoint opened, one per peer it sends to: opened on the first send,
 * reopened on the next send after a loss. The sending thread writes its frame itself, under the
 * connection's lock, so frames to one peer leave in the order they were sent.
 */
final class OutboundConnections {
    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;

    private final ConcurrentHashMap<String, Outbound> outbound = new ConcurrentHashMap<>();
    private final int maxFrameBytes;
    private final ClusterSecret secret;
    private final boolean encrypt;
    private final Receivers receivers;
    private final PendingRequests pending;

    /** @param encrypt whether this endpoint asks every connection it opens to be encrypted */
    OutboundConnections(TransportConfig config, boolean encrypt, Receivers receivers, PendingRequests pending) {
        this.maxFrameBytes = config.maxFrameBytes();
        this.secret = config.secret();
        this.encrypt = encrypt;
        this.receivers = receivers;
        this.pending = pending;
    }

    /**
     * Writes one whole frame to the peer.
     *
     * @throws TransportException when the peer cannot be reached; its waiting requests fail too
     */
    void send(String peer, EnvelopeFrames.Frame frame) {
        Outbound target = outbound.computeIfAbsent(peer, Outbound::new);
        try {
            target.connection().send(frame);
        } catch (AuthenticationException e) {
            target.refused(e);
            throw e;
        } catch (IOException e) {
            target.lost(e);
            throw new TransportException("cannot reach " + peer + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens the connection to {@code peer} now if none is open, sending nothing, so that the first
     * message does not wait for the connection and its handshake. A failure is left to that
     * message, which tries again and reports it.
     */
    void open(String peer) {
        try {
            outbound.computeIfAbsent(peer, Outbound::new).connection();
        } catch (IOException | RuntimeException e) {
            // the next send reconnects, and fails with the reason if it still cannot
        }
    }

    /** Closes the connection to a peer and fails the requests still waiting on it. */
    void disconnect(String peer) {
        Outbound lost = outbound.remove(peer);
        if (lost != null) {
            lost.close();
        }
        pending.failPeer(peer, "peer " + peer + " was disconnected");
    }

    void close() {
        outbound.values().forEach(Outbound::close);
        outbound.clear();
    }

    /** The connection to one peer. */
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
                    channel.socket().connect(Endpoint.socketAddress(peer), CONNECT_TIMEOUT_MILLIS);
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    InetSocketAddress address = Endpoint.socketAddress(peer);
                    FrameCipher cipher = OpenerHandshake.run(channel, peer, secret, Endpoint.HANDSHAKE_MAGIC,
                            encrypt || !address.getAddress().isLoopbackAddress());
                    FrameChannel frames = new FrameChannel(channel, maxFrameBytes, cipher);
                    Connection opened = new Connection(peer, frames);
                    receivers.readAnswers(opened, this::lost);
                    connection = opened;
                } catch (AuthenticationException e) {
                    channel.close();
                    throw e;
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
            pending.failPeer(peer, (broken == null ? "cannot reach " + peer : "connection to " + peer
                    + " lost") + ": " + cause.getMessage());
        }

        /** The peer and this node do not share the secret: waiters hear exactly that. */
        void refused(AuthenticationException failure) {
            pending.failPeer(peer, failure);
        }

        synchronized void close() {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
