package dev.distvm.transport;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * Runs the {@link Handshake} as the opener of a blocking connection, before the first frame: the
 * peer must prove the secret within {@link UnauthenticatedLimits#TIMEOUT}, or the connection is
 * not used. The socket is non-blocking during the handshake (so that a fake server that never
 * answers costs no more than the timeout) and blocking again after it.
 */
public final class OpenerHandshake {
    private OpenerHandshake() {}

    /** Proves the secret on a connection whose frames are to go unsealed (for raw clients in tests and tools). */
    public static void authenticate(SocketChannel channel, String peer, ClusterSecret secret, String magic)
            throws IOException {
        run(channel, peer, secret, magic, false);
    }

    /**
     * Proves the secret to the peer and checks its proof.
     *
     * @param encrypt whether this side asks for the connection's frames to be sealed
     * @return how the connection's frames are sealed; null when neither side asked
     * @throws AuthenticationException when either side's proof fails; its message names the cause and the fix
     * @throws IOException when the connection fails or the peer does not answer in time
     */
    static FrameCipher run(SocketChannel channel, String peer, ClusterSecret secret, String magic, boolean encrypt)
            throws IOException {
        channel.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            PendingHandshake handshake = PendingHandshake.opening(channel, secret, magic, encrypt, System.nanoTime());
            SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
            Handshake.Status status;
            while ((status = handshake.advance()) == Handshake.Status.CONTINUE) {
                if (handshake.expired(System.nanoTime())) {
                    throw new IOException(peer + " did not authenticate within "
                            + UnauthenticatedLimits.TIMEOUT.toSeconds() + " s");
                }
                key.interestOps(handshake.wantsWrite() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                selector.select(100);
                selector.selectedKeys().clear();
            }
            if (status == Handshake.Status.FAILED) {
                throw new AuthenticationException(peer, handshake.failure());
            }
            key.cancel();
            selector.selectNow(); // deregisters the channel, so that it may block again
            return handshake.cipher(true);
        } finally {
            if (channel.isOpen()) {
                channel.configureBlocking(true);
            }
        }
    }
}
