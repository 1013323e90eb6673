package dev.distvm.node;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of class and resource content, checked by the receiver before the content is used. */
final class ContentHash {
    private ContentHash() {}

    static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
