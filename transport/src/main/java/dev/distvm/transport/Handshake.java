package dev.distvm.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * Mutual proof of the cluster secret on a new connection, as a state machine over buffers (no
 * I/O), so that the blocking opener ({@link OpenerHandshake}), the endpoint's selector
 * ({@link Gatekeeper}) and MPI's socket device all run the same one.
 *
 * <pre>
 * opener   -> acceptor  HELLO      magic(4) encryptO(1) nonceO(32)
 * acceptor -> opener    CHALLENGE  magic(4) encryptA(1) nonceA(32)
 * opener   -> acceptor  PROOF      HMAC(K, "opener"   | magic | encryptO | encryptA | nonceO | nonceA)(32)
 * acceptor -> opener    ACCEPTED   0 HMAC(K, "acceptor" | magic | encryptO | encryptA | nonceO | nonceA)(32)
 *                    or REFUSED    1 length(1) the fixed text {@link #REFUSAL}
 * </pre>
 *
 * K is {@link ClusterKey}. Both nonces are fresh from {@link SecureRandom}, so no proof can be
 * replayed on another connection; the direction label keeps a proof from being reflected back. The
 * acceptor gives its proof only to an opener that has proved itself, and the opener sends nothing
 * else before it has checked the acceptor's. Every message has a fixed size of at most
 * {@link #MAX_MESSAGE_BYTES}: nothing a peer announces is ever allocated. Both sides then hold a
 * per-connection session key, HMAC(K, "session" | magic | nonceO | nonceA). The connection is
 * encrypted ({@link FrameCipher}) when either side asks (encryptX = 1); the proofs cover both
 * flags, so no one on the path can turn encryption off unseen.
 */
public final class Handshake {
    /** What an opener that failed to prove the secret hears: nothing in it is secret. */
    public static final String REFUSAL = "authentication failed: this node does not share the cluster secret; "
            + "start every node with the same " + ClusterSecret.ENV;
    static final int NONCE_BYTES = 32;
    private static final int MAGIC_BYTES = 4;
    private static final int GREETING_BYTES = MAGIC_BYTES + 1 + NONCE_BYTES;
    private static final byte ACCEPTED = 0;
    private static final byte REFUSED = 1;
    private static final byte[] REFUSAL_BYTES = REFUSAL.getBytes(StandardCharsets.US_ASCII);
    /** The largest message either side sends. */
    public static final int MAX_MESSAGE_BYTES = 2 + REFUSAL_BYTES.length;
    private static final byte[] OPENER = label("opener");
    private static final byte[] ACCEPTOR = label("acceptor");
    private static final byte[] SESSION = label("session");
    private static final SecureRandom RANDOM = new SecureRandom();

    public enum Status { CONTINUE, AUTHENTICATED, FAILED }

    private enum Step { HELLO, CHALLENGE, PROOF, VERDICT, ACCEPTOR_PROOF, DONE }

    private final ClusterKey key;
    private final byte[] magic;
    private final byte[] ownNonce = new byte[NONCE_BYTES];
    private final byte[] peerNonce = new byte[NONCE_BYTES];
    private final byte ownEncrypt;
    private byte peerEncrypt;
    private Step step;
    private String failure;
    private byte[] sessionKey;

    private Handshake(ClusterSecret secret, String magic, boolean encrypt, Step first) {
        this.key = new ClusterKey(secret);
        this.magic = magic.getBytes(StandardCharsets.US_ASCII);
        if (this.magic.length != MAGIC_BYTES) {
            throw new IllegalArgumentException("a protocol's magic is 4 ASCII characters, got '" + magic + "'");
        }
        RANDOM.nextBytes(ownNonce);
        this.ownEncrypt = (byte) (encrypt ? 1 : 0);
        this.step = first;
    }

    /** The side that opened the connection; {@link #start} gives its first message. {@code encrypt}: it asks for encryption. */
    public static Handshake opener(ClusterSecret secret, String magic, boolean encrypt) {
        return new Handshake(secret, magic, encrypt, Step.CHALLENGE);
    }

    /** The side that accepted the connection: it waits for the opener's HELLO. {@code encrypt}: it asks for encryption. */
    public static Handshake acceptor(ClusterSecret secret, String magic, boolean encrypt) {
        return new Handshake(secret, magic, encrypt, Step.HELLO);
    }

    /** Puts the opener's HELLO in {@code out}; nothing for an acceptor. */
    public void start(ByteBuffer out) {
        if (step == Step.CHALLENGE) {
            out.put(magic).put(ownEncrypt).put(ownNonce);
        }
    }

    /** How many bytes the peer's next message has: {@link #take} wants exactly these. 0 when finished. */
    public int wanted() {
        return switch (step) {
            case HELLO, CHALLENGE -> GREETING_BYTES;
            case PROOF, ACCEPTOR_PROOF -> ClusterKey.MAC_BYTES;
            case VERDICT -> 1;
            case DONE -> 0;
        };
    }

    /**
     * Takes the peer's next message, {@link #wanted()} bytes from {@code in}, and puts the answer,
     * if any, in {@code out} (room for {@link #MAX_MESSAGE_BYTES}). After FAILED, whatever is in
     * {@code out} is still to be sent, then the connection is closed.
     */
    public Status take(ByteBuffer in, ByteBuffer out) {
        if (in.remaining() < wanted() || step == Step.DONE) {
            throw new IllegalStateException("the handshake wants " + wanted() + " bytes, got " + in.remaining());
        }
        return switch (step) {
            case HELLO -> hello(in, out);
            case CHALLENGE -> challenge(in, out);
            case PROOF -> proof(in, out);
            case VERDICT -> verdict(in);
            case ACCEPTOR_PROOF -> acceptorProof(in);
            case DONE -> throw new IllegalStateException("the handshake is over");
        };
    }

    /** Why the handshake failed; null unless it did. */
    public String failure() {
        return failure;
    }

    /** Whether either side asked for encryption: then the connection's frames are sealed. Known once AUTHENTICATED. */
    public boolean encrypted() {
        return (ownEncrypt | peerEncrypt) != 0;
    }

    /** The key both sides derived for this connection alone; null before AUTHENTICATED. */
    public byte[] sessionKey() {
        return sessionKey == null ? null : sessionKey.clone();
    }

    private Status hello(ByteBuffer in, ByteBuffer out) {
        if (!readMagic(in)) {
            return fail("the peer does not speak this protocol (wrong magic)");
        }
        peerEncrypt = in.get();
        in.get(peerNonce);
        out.put(magic).put(ownEncrypt).put(ownNonce);
        step = Step.PROOF;
        return Status.CONTINUE;
    }

    private Status challenge(ByteBuffer in, ByteBuffer out) {
        if (!readMagic(in)) {
            return fail("the peer does not speak this protocol (wrong magic)");
        }
        peerEncrypt = in.get();
        in.get(peerNonce);
        out.put(proof(OPENER, ownEncrypt, peerEncrypt, ownNonce, peerNonce));
        step = Step.VERDICT;
        return Status.CONTINUE;
    }

    private Status proof(ByteBuffer in, ByteBuffer out) {
        if (!readProof(in, proof(OPENER, peerEncrypt, ownEncrypt, peerNonce, ownNonce))) {
            out.put(REFUSED).put((byte) REFUSAL_BYTES.length).put(REFUSAL_BYTES);
            return fail("the peer did not prove it holds the cluster secret");
        }
        out.put(ACCEPTED).put(proof(ACCEPTOR, peerEncrypt, ownEncrypt, peerNonce, ownNonce));
        return authenticated(peerNonce, ownNonce);
    }

    private Status verdict(ByteBuffer in) {
        if (in.get() != ACCEPTED) {
            return fail(REFUSAL);
        }
        step = Step.ACCEPTOR_PROOF;
        return Status.CONTINUE;
    }

    private Status acceptorProof(ByteBuffer in) {
        if (!readProof(in, proof(ACCEPTOR, ownEncrypt, peerEncrypt, ownNonce, peerNonce))) {
            return fail("authentication failed: the peer did not prove it holds the cluster secret; "
                    + "start every node with the same " + ClusterSecret.ENV);
        }
        return authenticated(ownNonce, peerNonce);
    }

    private Status authenticated(byte[] openerNonce, byte[] acceptorNonce) {
        sessionKey = key.mac(SESSION, magic, openerNonce, acceptorNonce);
        step = Step.DONE;
        return Status.AUTHENTICATED;
    }

    private Status fail(String why) {
        failure = why;
        step = Step.DONE;
        return Status.FAILED;
    }

    private byte[] proof(byte[] direction, byte openerEncrypt, byte acceptorEncrypt, byte[] openerNonce,
                         byte[] acceptorNonce) {
        return key.mac(direction, magic, new byte[] {openerEncrypt, acceptorEncrypt}, openerNonce, acceptorNonce);
    }

    private boolean readMagic(ByteBuffer in) {
        byte[] theirs = new byte[MAGIC_BYTES];
        in.get(theirs);
        return MessageDigest.isEqual(theirs, magic);
    }

    private static boolean readProof(ByteBuffer in, byte[] expected) {
        byte[] theirs = new byte[ClusterKey.MAC_BYTES];
        in.get(theirs);
        return MessageDigest.isEqual(theirs, expected); // constant time: no timing oracle on the proof
    }

    private static byte[] label(String direction) {
        return ("dist handshake " + direction).getBytes(StandardCharsets.US_ASCII);
    }
}
