package dev.distvm.transport;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The shared secret that admits a node to a cluster. Envelopes carry only a token derived from it
 * (the first 8 bytes of its SHA-256), so the secret itself never travels.
 */
public final class ClusterSecret {
    /** The environment variable through which a secret reaches the processes of a cluster. */
    public static final String ENV = "DIST_SECRET";

    private final String secret;
    private final long token;

    private ClusterSecret(String secret) {
        if (secret.isBlank()) {
            throw new IllegalArgumentException("the cluster secret is empty; set " + ENV + " to a non-empty value");
        }
        this.secret = secret;
        this.token = tokenOf(secret);
    }

    public static ClusterSecret of(String secret) {
        return new ClusterSecret(secret);
    }

    public static ClusterSecret random() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return new ClusterSecret(HexFormat.of().formatHex(bytes));
    }

    /** The secret named by {@value #ENV}, or null when it is not set. */
    public static ClusterSecret fromEnvironment() {
        String value = System.getenv(ENV);
        return value == null || value.isEmpty() ? null : new ClusterSecret(value);
    }

    public String value() {
        return secret;
    }

    public long token() {
        return token;
    }

    private static long tokenOf(String secret) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
            long token = 0;
            for (int i = 0; i < 8; i++) {
                token = (token << 8) | (digest[i] & 0xff);
            }
            return token;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }

    @Override
    public String toString() {
        return "ClusterSecret[token=" + Long.toHexString(token) + "]";
    }
}
