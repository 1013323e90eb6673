package dev.distvm.transport;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key that proofs of the cluster secret are made with, derived from the secret by HMAC-SHA256
 * (HKDF's extract step with a fixed label as salt), so the secret itself is used for nothing else.
 * Neither the secret nor this key ever leaves the process.
 */
final class ClusterKey {
    private static final byte[] LABEL = "dist cluster authentication key v1".getBytes(StandardCharsets.US_ASCII);
    static final String ALGORITHM = "HmacSHA256";
    static final int MAC_BYTES = 32;

    private final SecretKeySpec key;

    ClusterKey(ClusterSecret secret) {
        this.key = new SecretKeySpec(hmac(new SecretKeySpec(LABEL, ALGORITHM),
                secret.value().getBytes(StandardCharsets.UTF_8)), ALGORITHM);
    }

    /** HMAC-SHA256 under this key over the concatenation of {@code parts}. */
    byte[] mac(byte[]... parts) {
        return hmac(key, parts);
    }

    static byte[] hmac(SecretKeySpec key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is required by the Java platform", e);
        }
    }
}
