package dist.objectspace;

import dist.io.HomeLink;
import dist.transport.Endpoint;
import dist.transport.Inbound;
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
    public void send(int type, byte[] body) {
        SpaceMessages.send(endpoint, home.get(), type, body);
    }

    @Override
    public byte[] call(int type, byte[] body) {
        return call(type, body, SpaceMessages.BLOCKING);
    }

    byte[] call(int type, byte[] body, Duration timeout) {
        return SpaceMessages.call(endpoint, home.get(), type, body, timeout);
    }

    /** A request whose answer the caller waits for as it likes, as long as the home takes. */
    CompletableFuture<Inbound> request(int type, byte[] body) {
        return SpaceMessages.request(endpoint, home.get(), type, body, SpaceMessages.BLOCKING);
    }
}
