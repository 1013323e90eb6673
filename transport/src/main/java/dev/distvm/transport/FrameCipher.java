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
 * a 96-bit nonce that counts the sealings made that way, so no nonce repeats under a key. A frame
 * is sealed in one or more pieces ({@link FrameChannel}), each with the frame's length as
 * associated data: a frame altered, cut, reordered, replayed or moved from another connection
 * fails to open. One instance per connection; sealing
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
     * {@code sealedOffset} ({@code length + TAG_BYTES} bytes), authenticating {@code header} (the
     * length of the frame the bytes belong to) with them.
     */
    void seal(int header, byte[] plain, int offset, int length, byte[] sealed, int sealedOffset) {
        try {
            sending.next(header).doFinal(plain, offset, length, sealed, sealedOffset);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM failed to seal a frame", e);
        }
    }

    /**
     * Opens {@code sealedLength} bytes of {@code sealed} from {@code offset}, sealed by the peer
     * with {@code header}, into {@code plain} from {@code plainOffset} ({@code sealedLength -
     * TAG_BYTES} bytes; in place when both are the same).
     *
     * @throws IOException when the bytes were not sealed by the peer for this place in the stream
     */
    void open(int header, byte[] sealed, int offset, int sealedLength, byte[] plain, int plainOffset) throws IOException {
        try {
            receiving.next(header).doFinal(sealed, offset, sealedLength, plain, plainOffset);
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
        private final ByteBuffer associated = ByteBuffer.allocate(4);
        private long sealings;

        Direction(byte[] key, int mode) {
            this.key = new SecretKeySpec(key, "AES");
            this.mode = mode;
            try {
                this.cipher = Cipher.getInstance(TRANSFORMATION);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(TRANSFORMATION + " is required by the Java platform", e);
            }
        }

        /** The cipher, set up for the next sealing, its header already given as associated data. */
        Cipher next(int header) throws GeneralSecurityException {
            nonce.putLong(4, sealings++);
            cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, nonce.array()));
            cipher.updateAAD(associated.putInt(0, header).array());
            return cipher;
        }
    }
}
