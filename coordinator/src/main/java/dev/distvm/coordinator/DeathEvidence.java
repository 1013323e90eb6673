package dev.distvm.coordinator;

import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.transport.TcpAddress;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * What proves that a suspect is dead before its failure timeout: only evidence that cannot come
 * from a slow or paused process. On this host, its process has exited (a paused or starved one
 * is still there). Elsewhere, its port refuses connections: the kernel of a live host accepts
 * connections on a listening socket even while the process is stopped or busy, and refuses them
 * once the process, and its socket with it, is gone. A connection that times out proves nothing
 * (the host may be overloaded or cut off), nor does anything about a process of this host that lives.
 */
final class DeathEvidence {
    /** This host's name, as nodes report it when they join. */
    static final String HOST = hostName();
    private static final int PROBE_TIMEOUT_MILLIS = 1000;

    private DeathEvidence() {}

    /** Whether {@code node} runs in this very JVM. */
    static boolean isThisProcess(NodeInfo node) {
        return HOST.equals(node.getHost()) && node.getPid() == ProcessHandle.current().pid();
    }

    /** Certain evidence that {@code node}'s process is gone, said as a cause; empty when there is none. */
    static Optional<String> of(NodeInfo node, boolean askLocalProcesses) {
        if (askLocalProcesses && HOST.equals(node.getHost()) && node.getPid() > 0) {
            boolean alive = ProcessHandle.of(node.getPid()).map(ProcessHandle::isAlive).orElse(false);
            return alive ? Optional.empty() : Optional.of("its process " + node.getPid() + " has exited");
        }
        return TcpAddress.refusesConnections(node.getAddress(), PROBE_TIMEOUT_MILLIS)
                ? Optional.of("its port refuses connections (" + node.getAddress() + ")") : Optional.empty();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return ManagementFactory.getRuntimeMXBean().getName();
        }
    }
}
