package dev.distvm.it;

import dev.distvm.transport.ClusterSecret;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** An {@link EndpointTarget} process, started with a cluster secret and queried over its standard input. */
final class Target implements AutoCloseable {
    /** The classes the target runs: this test's own class path, unless a test run names another (to try old code). */
    private static final String CLASS_PATH = System.getProperty("target.classpath", System.getProperty("java.class.path"));

    private final Jvm jvm;
    private final String address;
    private int queries;

    private Target(Jvm jvm, String address) {
        this.jvm = jvm;
        this.address = address;
    }

    /** Starts a target with a small heap, so that what an attack costs shows. */
    static Target start(ClusterSecret secret) throws Exception {
        Jvm jvm = Jvm.start(Map.of(ClusterSecret.ENV, secret.value()),
                List.of("-Xmx256m", "-cp", CLASS_PATH, EndpointTarget.class.getName()));
        try {
            String address = jvm.awaitLine("listening at (tcp://\\S+)", Duration.ofSeconds(60)).group(1);
            return new Target(jvm, address);
        } catch (RuntimeException | Error e) {
            jvm.close();
            throw e;
        }
    }

    String address() {
        return address;
    }

    InetSocketAddress socketAddress() {
        int colon = address.lastIndexOf(':');
        return new InetSocketAddress(address.substring("tcp://".length(), colon), Integer.parseInt(address.substring(colon + 1)));
    }

    long query(String what) throws IOException, InterruptedException {
        String asked = what + " " + (++queries);
        jvm.tell(asked);
        return Long.parseLong(jvm.awaitLine("^" + asked + " = (\\d+)$", Duration.ofSeconds(60)).group(1));
    }

    /** The process's live threads, as the kernel counts them. */
    long threads() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(jvm.pid()), "status"))) {
            if (line.startsWith("Threads:")) {
                return Long.parseLong(line.substring("Threads:".length()).trim());
            }
        }
        throw new IllegalStateException("no Threads: line in /proc/" + jvm.pid() + "/status");
    }

    String output() {
        return jvm.output();
    }

    @Override
    public void close() {
        jvm.close();
    }
}
