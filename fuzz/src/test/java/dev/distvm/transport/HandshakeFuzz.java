package dev.distvm.transport;

import dev.distvm.fuzz.DecoderContract;
import java.nio.ByteBuffer;

/**
 * Whatever a peer sends during the handshake, as the accepting side and as the opening side take
 * it: the handshake goes on, fails with a reason, or (never, without the secret) succeeds; it
 * throws nothing. The input's first byte picks the side; the rest is the peer's bytes, taken in
 * the fixed-size messages {@link Handshake#wanted()} asks for.
 */
public final class HandshakeFuzz {
    private static final ClusterSecret SECRET = ClusterSecret.of("fuzz");

    private HandshakeFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        DecoderContract.check(input, () -> {
            if (input.length == 0) {
                return;
            }
            boolean opener = (input[0] & 1) == 1;
            Handshake handshake = opener ? Handshake.opener(SECRET, Endpoint.HANDSHAKE_MAGIC, false)
                    : Handshake.acceptor(SECRET, Endpoint.HANDSHAKE_MAGIC, false);
            ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
            handshake.start(out);
            ByteBuffer in = ByteBuffer.wrap(input, 1, input.length - 1);
            Handshake.Status status = Handshake.Status.CONTINUE;
            while (status == Handshake.Status.CONTINUE && handshake.wanted() > 0 && in.remaining() >= handshake.wanted()) {
                out.clear();
                status = handshake.take(in, out);
            }
            if (status == Handshake.Status.AUTHENTICATED) {
                throw new AssertionError("a peer without the secret passed the handshake as the "
                        + (opener ? "acceptor" : "opener"));
            }
            if (status == Handshake.Status.FAILED && handshake.failure() == null) {
                throw new AssertionError("a failed handshake that does not say why");
            }
        });
    }
}
