package dev.distvm.it;

import dev.distvm.transport.ClusterSecret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Looks for the cluster secret, or what is derived from it, in bytes a peer received: the secret,
 * its SHA-256 (of which the old cluster token was the first 8 bytes) and the handshake's HMAC key,
 * each whole or as any 8-byte window. The key is derived here independently of the transport's code.
 */
final class SecretExposure {
    private static final int WINDOW = 8;

    private SecretExposure() {}

    /** What of the secret {@code received} holds, or null when none of it. */
    static String findIn(byte[] received, ClusterSecret secret) throws Exception {
        byte[] plain = secret.value().getBytes(StandardCharsets.UTF_8);
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(plain);
        Mac derive = Mac.getInstance("HmacSHA256");
        derive.init(new SecretKeySpec("dist cluster authentication key v1".getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
        byte[] key = derive.doFinal(plain);
        for (var derived : new Object[][] {{"the secret", plain}, {"its SHA-256", digest}, {"the HMAC key", key}}) {
            byte[] bytes = (byte[]) derived[1];
            for (int start = 0; start + WINDOW <= bytes.length; start++) {
                byte[] window = Arrays.copyOfRange(bytes, start, start + WINDOW);
                if (indexOf(received, window) >= 0) {
                    return derived[0] + " (bytes " + start + ".." + (start + WINDOW) + ": "
                            + HexFormat.of().formatHex(window) + ")";
                }
            }
        }
        return null;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
