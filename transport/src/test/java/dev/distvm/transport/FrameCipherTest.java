package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Sealed frames open only once, in order, on the connection and in the direction they were sealed for. */
class FrameCipherTest {
    private static final byte[] SESSION = "a session key of thirty-two byte".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FRAME = "a frame the application sent".getBytes(StandardCharsets.US_ASCII);

    private final FrameCipher opener = FrameCipher.forOpener(SESSION);
    private final FrameCipher acceptor = FrameCipher.forAcceptor(SESSION);

    @Test
    void framesOpenInOrderInTheirDirectionAndAreNotInClearOnTheWire() throws IOException {
        byte[] first = seal(opener, FRAME);
        byte[] second = seal(opener, FRAME);

        assertFalse(Arrays.equals(first, second), "the same frame sealed twice differs (the nonce counts)");
        assertFalse(new String(first, StandardCharsets.ISO_8859_1).contains("application"), "no plaintext on the wire");
        assertArrayEquals(FRAME, open(acceptor, first));
        assertArrayEquals(FRAME, open(acceptor, second));
        byte[] answer = seal(acceptor, FRAME);
        assertArrayEquals(FRAME, open(opener, answer));
    }

    @Test
    void anAlteredFrameFailsToOpen() {
        byte[] sealed = seal(opener, FRAME);
        sealed[3] ^= 1;
        assertThrows(IOException.class, () -> open(acceptor, sealed));
    }

    @Test
    void aFrameOpenedAsPartOfAFrameOfAnotherLengthOrCutFailsToOpen() {
        byte[] sealed = seal(opener, FRAME);
        assertThrows(IOException.class, () -> acceptor.open(FRAME.length + 1, sealed, 0, sealed.length, new byte[FRAME.length], 0),
                "another frame length");
        FrameCipher fresh = FrameCipher.forAcceptor(SESSION);
        assertThrows(IOException.class, () -> fresh.open(FRAME.length, sealed, 0, sealed.length - 1, new byte[FRAME.length], 0), "cut");
        FrameCipher another = FrameCipher.forAcceptor(SESSION);
        assertThrows(IOException.class, () -> another.open(FRAME.length, sealed, 0, FrameCipher.TAG_BYTES - 1, new byte[0], 0),
                "shorter than a tag");
    }

    @Test
    void aFrameOpensInPlaceAndALargePieceRoundTrips() throws IOException {
        byte[] large = new byte[FrameChannel.SEALED_PIECE_BYTES];
        new java.util.Random(7).nextBytes(large);
        byte[] sealed = seal(opener, large);
        acceptor.open(large.length, sealed, 0, sealed.length, sealed, 0);
        assertArrayEquals(large, Arrays.copyOf(sealed, large.length));
    }

    @Test
    void aReplayedOrReorderedFrameFailsToOpen() throws IOException {
        byte[] first = seal(opener, FRAME);
        byte[] second = seal(opener, FRAME);
        assertThrows(IOException.class, () -> open(acceptor, second), "out of order");

        FrameCipher fresh = FrameCipher.forAcceptor(SESSION);
        open(fresh, first);
        assertThrows(IOException.class, () -> open(fresh, first), "replayed");
    }

    @Test
    void aFrameFromAnotherConnectionOrReflectedBackFailsToOpen() {
        byte[] sealed = seal(opener, FRAME);
        FrameCipher otherConnection = FrameCipher.forAcceptor("another session key, other bytes".getBytes(StandardCharsets.US_ASCII));
        assertThrows(IOException.class, () -> open(otherConnection, sealed));
        assertThrows(IOException.class, () -> open(FrameCipher.forOpener(SESSION), sealed), "reflected");
    }

    private static byte[] seal(FrameCipher cipher, byte[] plain) {
        byte[] sealed = new byte[plain.length + FrameCipher.TAG_BYTES];
        cipher.seal(plain.length, plain, 0, plain.length, sealed, 0);
        return sealed;
    }

    private static byte[] open(FrameCipher cipher, byte[] sealed) throws IOException {
        byte[] plain = new byte[sealed.length - FrameCipher.TAG_BYTES];
        cipher.open(plain.length, sealed, 0, sealed.length, plain, 0);
        return plain;
    }
}
