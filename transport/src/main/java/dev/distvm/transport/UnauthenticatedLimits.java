package dev.distvm.transport;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How many connections may wait to authenticate, in all and per remote address, and for how long.
 * A peer that has not proved the secret costs a bounded share of a node: beyond these, new
 * connections are closed at once. Used by one thread (the selector that owns the connections).
 */
public final class UnauthenticatedLimits {
    public static final int PER_ADDRESS = 64;
    public static final int TOTAL = 256;
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private int total;

    /** Counts a new connection from {@code remote}; false (and nothing counted) when it is over a limit. */
    public boolean admit(InetAddress remote) {
        int fromRemote = perAddress.getOrDefault(remote, 0);
        if (total >= TOTAL || fromRemote >= PER_ADDRESS) {
            return false;
        }
        perAddress.put(remote, fromRemote + 1);
        total++;
        return true;
    }

    /** A connection from {@code remote} admitted earlier has authenticated or gone. */
    public void release(InetAddress remote) {
        perAddress.computeIfPresent(remote, (address, count) -> count == 1 ? null : count - 1);
        total--;
    }
}
