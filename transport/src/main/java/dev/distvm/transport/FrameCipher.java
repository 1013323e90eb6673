package dev.distvm.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM (the JDK's {@code AES/GCM/NoPadding}) for the frames of one connection, as Spark's
 * authentication engine does: a key per direction, derived from the handshake's session key, and
 * a 96-bit nonce that counts the frames sent that way, so no nonce repeats under a key. Each frame
 * is sealed whole with its length prefix as associated data: a frame altered, cut, reordered,
 * replayed or moved from another connection fails to open. One instance per connection; sealing
 * is serialized by the connection's write lock, opening belongs to its reader.
 */
final class FrameCipher {
    static final int TAG_BYTES = 16;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final byte[] OPENER_TO_ACCEPTOR = "dist frames opener to acceptor".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ACCEPTOR_TO_OPENER = "dist frames acceptor to opener".getBytes(StandardCharsets.US_ASCII);

    private final Direction sending;
    private final Direction receiving;

    private FrameCipher(byte[] sessionKey, byte[] sendLabel, byte[] receiveLabel) {
        SecretKeySpec session = new SecretKeySpec(sessionKey, ClusterKey.ALGORITHM);
        this.sending = new Direction(ClusterKey.hmac(session, sendLabel), Cipher.ENCRYPT_MODE);
        this.receiving = new Direction(ClusterKey.hmac(session, receiveLabel), Cipher.DECRYPT_MODE);
    }

    static FrameCipher forOpener(byte[] sessionKey) {
        return new FrameCipher(sessionKey, OPENER_TO_ACCEPTOR, ACCEPTOR_TO_OPENER);
    }

    static FrameCipher forAcceptor(byte[] sessionKey) {
        return new FrameCipher(sessionKey, ACCEPTOR_TO_OPENER, OPENER_TO_ACCEPTOR);
    }

    /**
     * Seals {@code length} bytes of {@code plain} from {@code offset} into {@code sealed} from
     * {@code sealedOffset} ({@code length + TAG_BYTES} bytes); {@code prefix} is the frame's length
     * prefix, authenticated with it.
     */
    void seal(int prefix, byte[] plain, int offset, int length, byte[] sealed, int sealedOffset) {
        try {
            sending.next(prefix).doFinal(plain, offset, length, sealed, sealedOffset);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to seal a frame", e);
        }
    }

    /**
     * The plaintext of a sealed frame of {@code sealed.length} bytes announced by {@code prefix}.
     *
     * @throws IOException when the frame was not sealed by the peer for this place in the stream
     */
    byte[] open(int prefix, byte[] sealed) throws IOException {
        try {
            return receiving.next(prefix).doFinal(sealed);
        } catch (AEADBadTagException e) {
            throw new IOException("a frame failed its integrity check (altered, replayed or out of order); closing the connection");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to open a frame", e);
        }
    }

    /** One direction's key and frame counter. */
    private static final class Direction {
        private final SecretKeySpec key;
        private final int mode;
        private final Cipher cipher;
        private final ByteBuffer nonce = ByteBuffer.allocate(12);
        private long frames;

        Direction(byte[] key, int mode) {
            this.key = new SecretKeySpec(key, "AES");
            this.mode = mode;
            try {
                this.cipher = Cipher.getInstance(TRANSFORMATION);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(TRANSFORMATION + " is required by the Java platform", e);
            }
        }

        /** The cipher, set up for the next frame, its length prefix already given as associated data. */
        Cipher next(int prefix) throws GeneralSecurityException {
            nonce.putLong(4, frames++);
            cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, nonce.array()));
            cipher.updateAAD(ByteBuffer.allocate(4).putInt(prefix).array());
            return cipher;
        }
    }
}
