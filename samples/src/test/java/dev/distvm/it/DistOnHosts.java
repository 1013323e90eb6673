package dev.distvm.it;

import dev.distvm.perf.EmulatedHosts;
import dev.distvm.transport.ClusterSecret;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ./dist} commands on emulated hosts, as a user would type them on each, and their cleanup:
 * every process started is stopped, then the hosts are removed, even when a test fails.
 */
final class DistOnHosts implements AutoCloseable {
    static final Path SAMPLES = Path.of(System.getProperty("dist.samples"));
    /** The dist script of the checkout whose build this test runs. */
    private static final Path DIST = SAMPLES.getParent().getParent().resolve("dist");

    private final EmulatedHosts hosts;
    private final List<Jvm> processes = new ArrayList<>();

    DistOnHosts(String prefix, int count) throws Exception {
        hosts = EmulatedHosts.create(prefix, count);
    }

    String address(int host) {
        return hosts.address(host);
    }

    EmulatedHosts hosts() {
        return hosts;
    }

    /** {@code ./dist ARGS} on host {@code host}, on this JDK and this build (never rebuilding it). */
    Jvm dist(int host, String clusterSecret, List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(DIST.toString()));
        command.addAll(arguments);
        Jvm started = Jvm.command(Map.of(ClusterSecret.ENV, clusterSecret, "JAVA_HOME", System.getProperty("java.home"),
                "DIST_NO_BUILD", "1"), hosts.on(host, command));
        processes.add(started);
        return started;
    }

    @Override
    public void close() {
        try {
            processes.forEach(Jvm::close);
        } finally {
            hosts.close();
        }
    }
}
