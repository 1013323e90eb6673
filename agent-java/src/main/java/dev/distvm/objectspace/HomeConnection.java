package dev.distvm.objectspace;

import dev.distvm.io.HomeLink;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A worker's messages to the home, in the order its threads send them: past the interrupt gate
 * and counted as object-space bytes ({@link SpaceMessages}).
 */
final class HomeConnection implements HomeLink {
    private final Endpoint endpoint;
    private final Supplier<String> home;

    /** @param home the home's transport address, asked for at each use (it is learned late) */
    HomeConnection(Endpoint endpoint, Supplier<String> home) {
        this.endpoint = endpoint;
        this.home = home;
    }

    @Override
    public void send(int type, WireBuffer body) {
        SpaceMessages.send(endpoint, home.get(), type, body);
    }

    @Override
    public byte[] call(int type, byte[] body) {
        return SpaceMessages.bytes(call(type, SpaceMessages.of(body), SpaceMessages.BLOCKING));
    }

    /** The answer is a view of the frame it arrived in. */
    ByteBuffer call(int type, WireBuffer body, Duration timeout) {
        return SpaceMessages.call(endpoint, home.get(), type, body, timeout);
    }

    /** A request whose answer the caller waits for as it likes, as long as the home takes. */
    CompletableFuture<Inbound> request(int type, WireBuffer body) {
        return SpaceMessages.request(endpoint, home.get(), type, body, SpaceMessages.BLOCKING);
    }
}
