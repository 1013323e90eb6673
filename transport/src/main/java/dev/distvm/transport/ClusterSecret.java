package dev.distvm.transport;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The shared secret that admits a node to a cluster. Each connection proves knowledge of it by
 * challenge and response ({@link Handshake}): neither it nor anything derived from it travels.
 */
public final class ClusterSecret {
    /** The environment variable through which a secret reaches the processes of a cluster. */
    public static final String ENV = "DIST_SECRET";

    private final String secret;

    private ClusterSecret(String secret) {
        if (secret.isBlank()) {
            throw new IllegalArgumentException("the cluster secret is empty; set " + ENV + " to a non-empty value");
        }
        this.secret = secret;
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

    @Override
    public String toString() {
        return "ClusterSecret[hidden]";
    }
}
