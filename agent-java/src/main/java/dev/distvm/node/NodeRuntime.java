package dev.distvm.node;

import dev.distvm.agent.nativeagent.NativeAgent;
import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.coordinator.Membership;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.node.proto.NodeReport;
import dev.distvm.node.proto.ReportRequest;
import dev.distvm.objectspace.ObjectSpace;
import dev.distvm.report.ApplicationThreads;
import dev.distvm.report.MonitorHandOverCounts;
import dev.distvm.report.OnDemandCounts;
import dev.distvm.report.NodeCounters;
import dev.distvm.report.RunStops;
import dev.distvm.report.ThreadPlacement;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportCounters;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * What every node has, whatever its role: its endpoint, its membership, the class loader that
 * application code runs in here, and the report of what it did.
 */
public final class NodeRuntime {
    private static volatile NodeRuntime current;

    private final AgentOptions.Role role;
    private final Endpoint endpoint;
    private final Supplier<List<String>> remotelyLoaded;
    private final ExecutorService invocations;
    private volatile Membership membership;

    NodeRuntime(AgentOptions.Role role, Endpoint endpoint, ClassLoader applicationLoader,
                Supplier<List<String>> remotelyLoaded) {
        this.role = role;
        this.endpoint = endpoint;
        this.remotelyLoaded = remotelyLoaded;
        ThreadFactory invokers = DaemonThreads.numbered("dist-invoke-");
        this.invocations = Executors.newCachedThreadPool(r -> {
            Thread t = invokers.newThread(r);
            t.setContextClassLoader(applicationLoader);
            return t;
        });
        StaticInvoker.serve(endpoint, applicationLoader, invocations);
        // Not on the transport's reader: reporting collects garbage, and a worker then asks the home
        // to forget the copies it freed, whose answer that reader must be free to read.
        endpoint.register(NodeMessageType.NODE_REPORT_VALUE, message -> {
            message.decode(ReportRequest.parser());
            return CompletableFuture.supplyAsync(this::report, invocations);
        });
        reportMissingNativeCapabilities();
    }

    /** The runtime of this JVM, or null when it runs without dist. */
    public static NodeRuntime current() {
        return current;
    }

    void install(Membership membership) {
        this.membership = membership;
        current = this;
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    /**
     * Opens this node's connections to {@code peers} (transport addresses) on a thread of its own,
     * sending nothing: the first message to each, a placed thread's start or its first class
     * fetch, then does not wait for the connection's handshake, cold code on both sides.
     */
    void connectSoon(List<String> peers) {
        DaemonThreads.start("dist-connect", () -> peers.forEach(endpoint::openConnection));
    }

    public Membership membership() {
        return membership;
    }

    NodeReport report() {
        try {
            ObjectSpace.collectGarbage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the counts below are then of before the collection
        }
        long heapUsed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        TransportCounters counters = endpoint.counters();
        NodeReport.Builder report = NodeReport.newBuilder()
                .setNodeId(endpoint.nodeId())
                .setPid(ProcessHandle.current().pid())
                .setRole(role.name().toLowerCase())
                .addAllThreads(ApplicationThreads.all())
                .setThreadsNotListed(ApplicationThreads.notListed())
                .setMessagesSent(counters.messagesSent())
                .setBytesSent(counters.bytesSent())
                .setMessagesReceived(counters.messagesReceived())
                .setBytesReceived(counters.bytesReceived())
                .setRejected(counters.rejected())
                .addAllClassesLoadedRemotely(remotelyLoaded.get())
                .addAllPlacements(ThreadPlacement.decisions())
                .setPlacementsNotListed(ThreadPlacement.notListed())
                .addAllStops(RunStops.all())
                .setMonitorOperationsLocal(NodeCounters.localMonitorOperations())
                .setMonitorOperationsRemote(NodeCounters.remoteMonitorOperations())
                .setObjectsHomed(ObjectSpace.homedObjects())
                .setCopiesHeld(ObjectSpace.cachedCopies())
                .setTombstones(ObjectSpace.tombstones())
                .setHeapUsedAfterGc(heapUsed)
                .setWritesTracked(NodeCounters.writesTracked())
                .setStaticsFetched(NodeCounters.staticsFetched())
                .setRefreshes(NodeCounters.refreshes())
                .setReleases(NodeCounters.releases())
                .setVolatilesStaleTold(NodeCounters.VOLATILES_STALE_TOLD.sum())
                .setPartialSnapshots(NodeCounters.PARTIAL_SNAPSHOTS.sum())
                .addAllMonitorHandOvers(MonitorHandOverCounts.listed())
                .setMonitorClassesNotListed(MonitorHandOverCounts.notListed())
                .setVolatilePushes(NodeCounters.VOLATILE_PUSHES.sum())
                .addAllOnDemand(OnDemandCounts.listed())
                .setOnDemandClassesNotListed(OnDemandCounts.notListed())
                .setObjectBytesSent(NodeCounters.objectBytesSent())
                .setObjectBytesReceived(NodeCounters.objectBytesReceived());
        if (NativeAgent.isLoaded()) {
            report.addAllNativeCapabilities(List.of(NativeAgent.capabilities()));
        }
        return report.build();
    }

    void close() {
        invocations.shutdownNow();
        if (membership != null) {
            membership.close();
        }
        endpoint.close();
    }

    /**
     * Said only with --verbose: no part of a run depends on the native agent yet (its frames and
     * capabilities only reach the run report), so a plain {@code java -javaagent:dist.jar} run,
     * which does not load it, loses nothing a user would miss.
     */
    private static void reportMissingNativeCapabilities() {
        List<String> missing = NativeAgent.missingCapabilities();
        if (!missing.isEmpty()) {
            Log.debug((NativeAgent.isLoaded() ? "dist's native agent runs without JVMTI capabilities "
                    : "dist's native agent (libdistjvmti.so) is not loaded, as in a plain -javaagent run; ./dist run"
                    + " loads it with -agentpath. The run report will not list its JVMTI capabilities: ")
                    + String.join(", ", missing));
        }
    }
}
