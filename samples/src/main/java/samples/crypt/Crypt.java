package samples.crypt;

import java.util.zip.CRC32;
import samples.KernelTime;

/**
 * An encryption pass over a large shared byte array and back (the shape of JGF's Crypt, with XTEA
 * for its block cipher): phase 1, each thread enciphers its block range of {@code plain} into
 * {@code cipher}; main joins them; phase 2, new threads decipher their ranges of {@code cipher}
 * into {@code decoded}. Checked: the round trip gives back every byte, and the ciphertext's CRC-32
 * is the one main gets enciphering alone.
 *
 * <p>usage: Crypt [threads] [bytes] (defaults 4, 16000000; rounded down to whole 8-byte blocks)
 */
public final class Crypt {
    private static final int ROUNDS = 32;
    private static final int DELTA = 0x9E3779B9;
    private static final int[] KEY = {0x01234567, 0x89ABCDEF, 0xFEDCBA98, 0x76543210};

    private Crypt() {}

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int bytes = (args.length > 1 ? Integer.parseInt(args[1]) : 16_000_000) / 8 * 8;
        byte[] plain = new byte[bytes];
        long seed = 7;
        for (int i = 0; i < bytes; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            plain[i] = (byte) (seed >>> 56);
        }
        byte[] cipher = new byte[bytes];
        byte[] decoded = new byte[bytes];

        long kernel = KernelTime.start();
        inParallel(threads, bytes / 8, false, plain, cipher);
        inParallel(threads, bytes / 8, true, cipher, decoded);
        KernelTime.report(kernel);

        for (int i = 0; i < bytes; i++) {
            if (decoded[i] != plain[i]) {
                throw new IllegalStateException("byte " + i + " came back as " + decoded[i] + ", not " + plain[i]
                        + ": a block is missing or stale");
            }
        }
        byte[] alone = new byte[bytes];
        encipher(plain, alone, 0, bytes / 8);
        if (crc(alone) != crc(cipher)) {
            throw new IllegalStateException("the ciphertext differs from the one enciphered by main alone");
        }
        System.out.printf("XTEA over %d bytes and back: round trip exact, ciphertext CRC-32 %08x%n", bytes, crc(cipher));
    }

    /**
     * Runs one pass over [0, blocks) of {@code in} into {@code out}, split among {@code threads} new
     * threads, and joins them.
     */
    private static void inParallel(int threads, int blocks, boolean decipher, byte[] in, byte[] out)
            throws InterruptedException {
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int from = (int) ((long) blocks * t / threads);
            int to = (int) ((long) blocks * (t + 1) / threads);
            workers[t] = new Thread(() -> {
                if (decipher) {
                    decipher(in, out, from, to);
                } else {
                    encipher(in, out, from, to);
                }
            }, "blocks-" + t);
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
    }

    static void encipher(byte[] in, byte[] out, int fromBlock, int toBlock) {
        for (int b = fromBlock; b < toBlock; b++) {
            int v0 = word(in, b * 8);
            int v1 = word(in, b * 8 + 4);
            int sum = 0;
            for (int round = 0; round < ROUNDS; round++) {
                v0 += (((v1 << 4) ^ (v1 >>> 5)) + v1) ^ (sum + KEY[sum & 3]);
                sum += DELTA;
                v1 += (((v0 << 4) ^ (v0 >>> 5)) + v0) ^ (sum + KEY[(sum >>> 11) & 3]);
            }
            put(out, b * 8, v0);
            put(out, b * 8 + 4, v1);
        }
    }

    static void decipher(byte[] in, byte[] out, int fromBlock, int toBlock) {
        for (int b = fromBlock; b < toBlock; b++) {
            int v0 = word(in, b * 8);
            int v1 = word(in, b * 8 + 4);
            int sum = DELTA * ROUNDS;
            for (int round = 0; round < ROUNDS; round++) {
                v1 -= (((v0 << 4) ^ (v0 >>> 5)) + v0) ^ (sum + KEY[(sum >>> 11) & 3]);
                sum -= DELTA;
                v0 -= (((v1 << 4) ^ (v1 >>> 5)) + v1) ^ (sum + KEY[sum & 3]);
            }
            put(out, b * 8, v0);
            put(out, b * 8 + 4, v1);
        }
    }

    private static int word(byte[] bytes, int at) {
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8 | (bytes[at + 3] & 0xFF);
    }

    private static void put(byte[] bytes, int at, int word) {
        bytes[at] = (byte) (word >>> 24);
        bytes[at + 1] = (byte) (word >>> 16);
        bytes[at + 2] = (byte) (word >>> 8);
        bytes[at + 3] = (byte) word;
    }

    private static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }
}
