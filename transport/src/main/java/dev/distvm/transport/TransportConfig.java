package dev.distvm.transport;

import java.time.Duration;

/**
 * How an {@link Endpoint} binds and what it accepts.
 *
 * @param bindAddress    {@code tcp://HOST:PORT}; port 0 picks a free port. Loopback unless told otherwise.
 * @param secret         the cluster secret every connection proves (both ways) before its first frame
 * @param maxFrameBytes  the largest message (envelope); larger ones are refused on send, and on
 *                       receive answered with an error and the connection closed. By default as
 *                       large as a Java array allows: frames over a piece travel in pieces
 *                       ({@link FrameChannel}), so their size costs no more than their bytes
 * @param requestTimeout how long a request waits for its reply unless the caller says otherwise
 * @param encrypt        ask every connection to be encrypted even on loopback (off loopback it always is)
 * @param advertisedAddress the {@code tcp://HOST:PORT} peers are told to connect to where it is not the bound
 *                       address (a wildcard bind, a forwarded port); port 0 means the bound port; null: the bound address
 */
public record TransportConfig(String bindAddress, ClusterSecret secret, int maxFrameBytes, Duration requestTimeout,
                              boolean encrypt, String advertisedAddress) {
    /** A message and its envelope header must fit one Java array, with room in front ({@link WireBuffer}). */
    public static final int DEFAULT_MAX_FRAME_BYTES = WireBuffer.MAX_ARRAY_BYTES - WireBuffer.HEADER_ROOM;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    public TransportConfig {
        if (!bindAddress.startsWith("tcp://")) {
            throw new IllegalArgumentException("bind address must look like tcp://HOST:PORT, got '" + bindAddress + "'");
        }
        if (maxFrameBytes < 1024) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 1024, got " + maxFrameBytes);
        }
    }

    /** A config that encrypts only off loopback. */
    public TransportConfig(String bindAddress, ClusterSecret secret, int maxFrameBytes, Duration requestTimeout) {
        this(bindAddress, secret, maxFrameBytes, requestTimeout, false, null);
    }

    public static TransportConfig loopback(ClusterSecret secret) {
        return new TransportConfig("tcp://127.0.0.1:0", secret, DEFAULT_MAX_FRAME_BYTES, DEFAULT_REQUEST_TIMEOUT);
    }

    public TransportConfig withBindAddress(String address) {
        return new TransportConfig(address, secret, maxFrameBytes, requestTimeout, encrypt, advertisedAddress);
    }

    /** Peers are told {@code address} (port 0: the bound port) instead of the bound address; null: the bound one. */
    public TransportConfig withAdvertisedAddress(String address) {
        return new TransportConfig(bindAddress, secret, maxFrameBytes, requestTimeout, encrypt, address);
    }

    public TransportConfig withEncryption(boolean on) {
        return new TransportConfig(bindAddress, secret, maxFrameBytes, requestTimeout, on, advertisedAddress);
    }
}
