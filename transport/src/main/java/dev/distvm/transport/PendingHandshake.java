package dev.distvm.transport;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A {@link Handshake} on a non-blocking socket, advanced by whichever selector or waiting thread
 * owns the socket: the acceptor's side always, the opener's where a blocking wait could stall
 * (MPI's ranks answer only from inside MPI calls). It reads exactly what the handshake's next message needs, so nothing
 * after the handshake is read here, and it holds two buffers of {@link Handshake#MAX_MESSAGE_BYTES}:
 * all an unauthenticated peer costs.
 */
public final class PendingHandshake {
    private final SocketChannel channel;
    private final InetAddress remote;
    private final Handshake handshake;
    private final long deadlineNanos;
    private final ByteBuffer in = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
    /** Bytes still to send, between position and limit. */
    private final ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES).flip();
    private Handshake.Status status = Handshake.Status.CONTINUE;

    private PendingHandshake(SocketChannel channel, Handshake handshake, long nowNanos) throws IOException {
        this.channel = channel;
        this.remote = ((InetSocketAddress) channel.getRemoteAddress()).getAddress();
        this.handshake = handshake;
        this.deadlineNanos = nowNanos + UnauthenticatedLimits.TIMEOUT.toNanos();
        out.clear();
        handshake.start(out);
        out.flip();
        in.limit(handshake.wanted());
    }

    /** The side that accepted {@code channel}: it waits for the opener's HELLO. */
    public static PendingHandshake accepting(SocketChannel channel, ClusterSecret secret, String magic, boolean encrypt,
                                             long nowNanos) throws IOException {
        return new PendingHandshake(channel, Handshake.acceptor(secret, magic, encrypt), nowNanos);
    }

    /** The side that opened {@code channel}: its HELLO goes on the first {@link #advance}. */
    public static PendingHandshake opening(SocketChannel channel, ClusterSecret secret, String magic, boolean encrypt,
                                           long nowNanos) throws IOException {
        return new PendingHandshake(channel, Handshake.opener(secret, magic, encrypt), nowNanos);
    }

    public SocketChannel channel() {
        return channel;
    }

    public InetAddress remote() {
        return remote;
    }

    public boolean expired(long nowNanos) {
        return nowNanos - deadlineNanos > 0;
    }

    /** True while an answer waits for room in the socket: the selector should wait for writability too. */
    public boolean wantsWrite() {
        return out.hasRemaining();
    }

    /** Why it failed, for the log; null unless it did. */
    public String failure() {
        return handshake.failure();
    }

    /**
     * Sends what is pending and reads what the socket has. AUTHENTICATED once the peer has proved
     * the secret and this side's answer is all sent; FAILED after one attempt to send the refusal.
     *
     * @throws EOFException when the peer closed the connection
     */
    public Handshake.Status advance() throws IOException {
        channel.write(out);
        while (status == Handshake.Status.CONTINUE && !out.hasRemaining()) {
            if (channel.read(in) < 0) {
                throw new EOFException("the peer closed the connection during authentication");
            }
            if (in.hasRemaining()) {
                return Handshake.Status.CONTINUE; // the rest of the message has not come yet
            }
            out.clear();
            status = handshake.take(in.flip(), out);
            out.flip();
            in.clear().limit(Math.max(handshake.wanted(), 0));
            channel.write(out);
        }
        if (status == Handshake.Status.AUTHENTICATED && out.hasRemaining()) {
            return Handshake.Status.CONTINUE;
        }
        return status;
    }

    /** The sealing of the connection's frames once AUTHENTICATED; null when neither side asked for encryption. */
    FrameCipher cipher(boolean opener) {
        if (!handshake.encrypted()) {
            return null;
        }
        return opener ? FrameCipher.forOpener(handshake.sessionKey()) : FrameCipher.forAcceptor(handshake.sessionKey());
    }
}
