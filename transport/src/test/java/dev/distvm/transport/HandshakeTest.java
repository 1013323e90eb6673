package dev.distvm.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The handshake as a state machine, message by message, with no socket in between. */
class HandshakeTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("handshake test");
    private static final String MAGIC = "tst1";

    /** Both sides of one connection, and every message the opener sent, in order. */
    private record Run(Handshake.Status opener, Handshake.Status acceptor, Handshake openerSide,
                       Handshake acceptorSide, List<byte[]> openerMessages, byte[] lastAcceptorMessage) {}

    @Test
    void sidesWithTheSameSecretAuthenticateAndShareAKeyOfTheirOwn() {
        Run first = run(Handshake.opener(SECRET, MAGIC, false), Handshake.acceptor(SECRET, MAGIC, false));
        Run second = run(Handshake.opener(SECRET, MAGIC, false), Handshake.acceptor(SECRET, MAGIC, false));

        assertEquals(Handshake.Status.AUTHENTICATED, first.opener());
        assertEquals(Handshake.Status.AUTHENTICATED, first.acceptor());
        assertArrayEquals(first.openerSide().sessionKey(), first.acceptorSide().sessionKey());
        assertFalse(Arrays.equals(first.openerSide().sessionKey(), second.openerSide().sessionKey()),
                "fresh nonces give every connection a key of its own");
    }

    @Test
    void anOpenerWithAnotherSecretIsRefusedInAFixedTextAndLearnsNoProof() {
        Run run = run(Handshake.opener(ClusterSecret.of("guess"), MAGIC, false), Handshake.acceptor(SECRET, MAGIC, false));

        assertEquals(Handshake.Status.FAILED, run.acceptor());
        assertEquals(Handshake.Status.FAILED, run.opener());
        assertEquals(Handshake.REFUSAL, run.openerSide().failure());
        byte[] refusal = run.lastAcceptorMessage();
        assertEquals(1, refusal[0], "the refusal's status byte");
        assertEquals(Handshake.REFUSAL, new String(refusal, 2, refusal.length - 2, StandardCharsets.US_ASCII));
        assertNull(run.acceptorSide().sessionKey());
    }

    @Test
    void anAcceptorWithAnotherSecretIsNotBelieved() {
        Run run = run(Handshake.opener(SECRET, MAGIC, false), Handshake.acceptor(ClusterSecret.of("fake server"), MAGIC, false));

        assertEquals(Handshake.Status.FAILED, run.opener());
        assertNull(run.openerSide().sessionKey());
    }

    @Test
    void eitherSideAskingForEncryptionEncryptsTheConnection() {
        Run openerAsks = run(Handshake.opener(SECRET, MAGIC, true), Handshake.acceptor(SECRET, MAGIC, false));
        Run acceptorAsks = run(Handshake.opener(SECRET, MAGIC, false), Handshake.acceptor(SECRET, MAGIC, true));
        Run neither = run(Handshake.opener(SECRET, MAGIC, false), Handshake.acceptor(SECRET, MAGIC, false));

        assertTrue(openerAsks.openerSide().encrypted() && openerAsks.acceptorSide().encrypted());
        assertTrue(acceptorAsks.openerSide().encrypted() && acceptorAsks.acceptorSide().encrypted());
        assertFalse(neither.openerSide().encrypted() || neither.acceptorSide().encrypted());
    }

    @Test
    void encryptionTurnedOffOnThePathFailsTheHandshake() {
        Handshake opener = Handshake.opener(SECRET, MAGIC, true);
        Handshake acceptor = Handshake.acceptor(SECRET, MAGIC, false);
        ByteBuffer toAcceptor = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
        ByteBuffer toOpener = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
        opener.start(toAcceptor);
        toAcceptor.put(4, (byte) 0); // a man in the middle clears the opener's request for encryption
        acceptor.take(toAcceptor.flip(), toOpener);
        opener.take(toOpener.flip(), toAcceptor.clear());

        assertEquals(Handshake.Status.FAILED, acceptor.take(toAcceptor.flip(), toOpener.clear()),
                "the opener's proof covers the flag it sent");
    }

    @Test
    void anOpenersRecordedMessagesReplayedToANewAcceptorAreRefused() {
        Run recorded = run(Handshake.opener(SECRET, MAGIC, false), Handshake.acceptor(SECRET, MAGIC, false));
        assertEquals(Handshake.Status.AUTHENTICATED, recorded.acceptor());

        Handshake acceptor = Handshake.acceptor(SECRET, MAGIC, false);
        ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
        Handshake.Status status = Handshake.Status.CONTINUE;
        for (byte[] message : recorded.openerMessages()) {
            status = acceptor.take(ByteBuffer.wrap(message), out.clear());
        }
        assertEquals(Handshake.Status.FAILED, status, "a fresh challenge makes the old proof worthless");
    }

    @Test
    void aPeerOfAnotherProtocolFailsWithoutAnAnswer() {
        Handshake acceptor = Handshake.acceptor(SECRET, MAGIC, false);
        ByteBuffer out = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
        byte[] http = "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

        assertEquals(Handshake.Status.FAILED, acceptor.take(ByteBuffer.wrap(http, 0, acceptor.wanted()), out));
        assertEquals(0, out.position(), "nothing is said to a stranger");
    }

    /** Passes each side's messages to the other until neither continues. */
    private static Run run(Handshake opener, Handshake acceptor) {
        ByteBuffer toAcceptor = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
        ByteBuffer toOpener = ByteBuffer.allocate(Handshake.MAX_MESSAGE_BYTES);
        List<byte[]> openerMessages = new ArrayList<>();
        byte[] lastAcceptorMessage = null;
        opener.start(toAcceptor);
        Handshake.Status openerStatus = Handshake.Status.CONTINUE;
        Handshake.Status acceptorStatus = Handshake.Status.CONTINUE;
        while (toAcceptor.position() > 0 && acceptorStatus == Handshake.Status.CONTINUE) {
            byte[] message = Arrays.copyOf(toAcceptor.array(), toAcceptor.position());
            openerMessages.add(message);
            acceptorStatus = acceptor.take(ByteBuffer.wrap(message), toOpener.clear());
            toAcceptor.clear();
            lastAcceptorMessage = Arrays.copyOf(toOpener.array(), toOpener.position());
            ByteBuffer reply = toOpener.flip();
            while (reply.hasRemaining() && openerStatus == Handshake.Status.CONTINUE) {
                ByteBuffer next = reply.slice(reply.position(), Math.min(opener.wanted(), reply.remaining()));
                openerStatus = opener.take(next, toAcceptor);
                reply.position(reply.position() + next.position());
            }
        }
        return new Run(openerStatus, acceptorStatus, opener, acceptor, openerMessages, lastAcceptorMessage);
    }
}
