package dev.distvm.transport;

import java.io.IOException;
import java.security.SecureRandom;

/**
 * Gets the frame cipher's code compiled before a connection needs it, for a node that would
 * otherwise wait idle. A worker's first placed thread often arrives in one large message (the
 * arrays its code reads): in a fresh JVM, sealing and opening 12 MB took 170-184 ms, and 18-21 ms
 * once the JIT had compiled the AES and SHA-256 intrinsics in. Small frames make the invocations
 * that get them compiled cheaply. How many it takes depends on how busy the JIT is (its thresholds
 * grow with its queue), so the warm-up goes on in rounds until a piece as large as a connection
 * seals runs at compiled speed, with pauses that leave the compiler the CPU, and gives up after
 * {@value #ROUNDS} rounds.
 */
public final class CipherWarmUp {
    private static final int ROUNDS = 40;
    private static final int FRAMES_PER_ROUND = 250;
    private static final int SMALL_FRAME_BYTES = 256;
    /** A piece as large as the frames a connection seals: above some size the JDK takes other paths. */
    private static final int PROBE_FRAME_BYTES = FrameChannel.SEALED_PIECE_BYTES;
    /** Sealing and opening the probe frame at 600 MB/s or more: compiled (before, about 150). */
    private static final long COMPILED_PROBE_NANOS = 2L * PROBE_FRAME_BYTES * 1_000 / 600; // bytes / (600 bytes per microsecond)
    private static final long PAUSE_MILLIS = 10;

    private final FrameCipher opener;
    private final FrameCipher acceptor;
    private final byte[] plain = new byte[PROBE_FRAME_BYTES];
    private final byte[] sealed = new byte[PROBE_FRAME_BYTES + FrameCipher.TAG_BYTES];

    private CipherWarmUp(byte[] sessionKey) {
        this.opener = FrameCipher.forOpener(sessionKey);
        this.acceptor = FrameCipher.forAcceptor(sessionKey);
    }

    /** Seals and opens frames with a throwaway session key until the cipher runs compiled; returns whether it does. */
    public static boolean run() throws InterruptedException {
        byte[] sessionKey = new byte[32];
        new SecureRandom().nextBytes(sessionKey);
        CipherWarmUp warmUp = new CipherWarmUp(sessionKey);
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < FRAMES_PER_ROUND; i++) {
                warmUp.sealAndOpen(SMALL_FRAME_BYTES);
            }
            long begin = System.nanoTime();
            warmUp.sealAndOpen(PROBE_FRAME_BYTES);
            if (System.nanoTime() - begin <= COMPILED_PROBE_NANOS) {
                return true;
            }
            Thread.sleep(PAUSE_MILLIS);
        }
        return false;
    }

    private void sealAndOpen(int bytes) {
        opener.seal(bytes, plain, 0, bytes, sealed, 0);
        try {
            acceptor.open(bytes, sealed, 0, bytes + FrameCipher.TAG_BYTES, plain, 0);
        } catch (IOException e) {
            throw new IllegalStateException("a frame sealed with a fresh key failed to open: " + e.getMessage(), e);
        }
    }
}
