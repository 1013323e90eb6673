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

    /**
     * Proves the secret to the peer and checks its proof.
     *
     * @return the connection's session key
     * @throws AuthenticationException when either side's proof fails; its message names the cause and the fix
     * @throws IOException when the connection fails or the peer does not answer in time
     */
    public static byte[] run(SocketChannel channel, String peer, ClusterSecret secret, String magic) throws IOException {
        channel.configureBlocking(false);
        try (Selector selector = Selector.open()) {
            PendingHandshake handshake = PendingHandshake.opening(channel, secret, magic, System.nanoTime());
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
            return handshake.sessionKey();
        } finally {
            if (channel.isOpen()) {
                channel.configureBlocking(true);
            }
        }
    }
}
