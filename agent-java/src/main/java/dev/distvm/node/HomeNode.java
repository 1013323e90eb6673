package dev.distvm.node;

import dev.distvm.common.Log;
import dev.distvm.coordinator.Coordinator;
import dev.distvm.coordinator.Membership;
import dev.distvm.coordinator.MembershipSettings;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.Role;
import dev.distvm.exit.Exits;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.node.proto.NodeReport;
import dev.distvm.node.proto.ReportRequest;
import dev.distvm.objectspace.ObjectSpace;
import dev.distvm.profile.RunProfiler;
import dev.distvm.report.ApplicationThreads;
import dev.distvm.report.RunReport;
import dev.distvm.report.ThreadPlacement;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The home: the JVM that runs {@code main}. It serves the application's classes, starts the
 * embedded coordinator and the local workers when asked to, and at its end collects the run report
 * and takes its workers down with it.
 */
public final class HomeNode {
    private static final Duration JOIN_WAIT = Duration.ofSeconds(60);
    /** A worker's report includes full collections and rounds with the home to free its copies. */
    private static final Duration REPORT_WAIT = Duration.ofSeconds(20);

    private final AgentOptions options;
    private final NodeRuntime runtime;
    private final Coordinator coordinator;
    private final List<Process> workers;
    private final Instant started = Instant.now();

    private HomeNode(AgentOptions options, NodeRuntime runtime, Coordinator coordinator, List<Process> workers) {
        this.options = options;
        this.workers = workers;
        this.runtime = runtime;
        this.coordinator = coordinator;
    }

    /**
     * Starts the home node and, for {@code nodes=N}, its N-1 local workers; returns once all have
     * joined.
     *
     * @param mainThread the thread that will run {@code main}
     */
    public static void start(AgentOptions options, Thread mainThread) throws IOException, InterruptedException {
        ClusterSecret secret = options.join() == null ? ClusterSecret.random() : ClusterSecret.fromEnvironment();
        if (secret == null) {
            throw new StartupException("joining the coordinator at " + options.join() + " needs its cluster secret: set "
                    + ClusterSecret.ENV + " to the secret the coordinator printed when it started");
        }
        TransportConfig coordinatorConfig = TransportConfig.loopback(secret).withEncryption(options.encrypt());
        Endpoint.Listening coordinatorPort = options.join() == null ? Endpoint.listen(coordinatorConfig) : null;
        String coordinatorAddress = coordinatorPort == null ? options.join() : coordinatorPort.address();
        // First, so that the workers' JVMs start while this one builds its node; if they are faster,
        // they wait in the coordinator's backlog.
        List<Process> workers = options.nodes() > 1
                ? WorkerLauncher.launch(options.nodes() - 1, coordinatorAddress, secret, options) : List.of();
        Coordinator coordinator = coordinatorPort == null ? null : Coordinator.startForItsHome(
                Endpoint.open(coordinatorConfig, coordinatorPort), MembershipSettings.withFailureTimeout(options.failureTimeout()));
        if (options.metrics() != null) {
            try {
                Log.info("metrics (OpenMetrics, for Prometheus) at " + coordinator.serveMetrics(options.metrics()).url());
            } catch (IOException e) {
                throw new StartupException(e.getMessage());
            }
        }
        Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secret).withBindAddress(options.bind())
                .withAdvertisedAddress(options.advertise()).withEncryption(options.encrypt()));
        ClassLoader applicationLoader = ClassLoader.getSystemClassLoader();
        ClassServer.serve(endpoint, applicationLoader);
        NodeRuntime runtime = new NodeRuntime(AgentOptions.Role.HOME, endpoint, applicationLoader, List::of);
        HomeNode home = new HomeNode(options, runtime, coordinator, workers);
        Membership membership = Membership.join(endpoint, coordinatorAddress, Role.HOME, new Membership.Listener() {
            @Override
            public void changed(NodeInfo node) {
                ObjectSpace.nodeChanged(node);
                if (node.getState() == NodeState.DEAD) {
                    Log.warn("node " + node.getId() + " (" + node.getRole().name().toLowerCase() + ", pid "
                            + node.getPid() + ") died");
                } else {
                    Log.debug("node " + node.getId() + " " + node.getState().name().toLowerCase());
                }
            }

            @Override
            public void lost(String reason) {
                // Fencing: its workers already stopped or hold it dead; going on would make two views of its threads.
                Log.warn(reason + "; this home was declared dead (paused or starved past the failure timeout of "
                        + options.failureTimeout().toMillis() + " ms?) and stops; raise --failure-timeout if it was"
                        + " only slow");
                Exits.exitSoon(Exits.EXPELLED, reason);
            }
        });
        runtime.install(membership);
        ObjectSpace.startHome(endpoint, membership, applicationLoader, mainThread);
        ApplicationThreads.main(mainThread);
        Runtime.getRuntime().addShutdownHook(new Thread(home::end, "dist-home-shutdown"));
        if (options.nodes() > 1) {
            home.awaitWorkers(membership);
            runtime.connectSoon(otherNodes(membership).stream().map(NodeInfo::getAddress).toList());
        }
    }

    private void awaitWorkers(Membership membership) throws InterruptedException {
        int wanted = options.nodes();
        long start = System.nanoTime();
        // Checked every second, so that a worker that exits or a lost coordinator is said at once, not after the wait.
        while (!membership.awaitAlive(wanted, Duration.ofSeconds(1))) {
            for (Process worker : workers) {
                if (!worker.isAlive()) {
                    throw new StartupException("worker process " + worker.pid() + " exited with status "
                            + worker.exitValue() + " before the cluster was ready; its messages above say why");
                }
            }
            long waited = Duration.ofNanos(System.nanoTime() - start).toSeconds();
            if (membership.isLost()) {
                throw new StartupException("the home lost its coordinator after " + waited + " s, while "
                        + membership.alive().size() + " of " + wanted + " nodes had joined; the message above says why");
            }
            if (waited >= JOIN_WAIT.toSeconds()) {
                throw new StartupException("only " + membership.alive().size() + " of " + wanted + " nodes joined within "
                        + waited + " s; the workers' messages above say why (on a heavily loaded machine, try fewer nodes)");
            }
        }
        Log.info("cluster of " + wanted + " nodes ready: " + membership.alive().stream()
                .map(n -> "node " + n.getId() + " " + n.getRole().name().toLowerCase() + " pid " + n.getPid())
                .collect(Collectors.joining(", ")));
    }

    /** The end of the run: report, leave (the workers stop when they hear it), and reap the workers. */
    private void end() {
        // First, since an ending run may be halted: a worker killed with SIGKILL left its directory behind.
        RunDirectory.sweepStale();
        if (options.nodes() > 1 || options.join() != null) { // a cluster: say where the threads went
            String where = ThreadPlacement.summary(runtime.endpoint().nodeId());
            if (where != null) {
                Log.info(where);
            }
        }
        try {
            if (options.report() != null) {
                writeReport();
            }
        } catch (IOException | RuntimeException e) {
            Log.warn("could not write the run report to " + options.report() + ": " + e);
        }
        reportProfile();
        Membership membership = runtime.membership();
        if (membership != null) {
            membership.leave();
        }
        reapWorkers();
        runtime.close();
        if (coordinator != null) {
            coordinator.close();
        }
    }

    /** With {@code profile=FILE}: the summary on standard error, the JSON in the file. */
    private void reportProfile() {
        try {
            String summary = RunProfiler.finish(options.profile());
            if (summary != null) {
                summary.lines().forEach(Log::info);
                Log.info("profile written to " + options.profile());
            }
        } catch (IOException | RuntimeException e) {
            Log.warn("could not write the profile to " + options.profile() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The live members other than this home: its workers. */
    private static List<NodeInfo> otherNodes(Membership membership) {
        return membership.alive().stream().filter(n -> n.getId() != membership.nodeId()).toList();
    }

    private void writeReport() throws IOException {
        Membership membership = runtime.membership();
        Map<NodeInfo, CompletableFuture<NodeReport>> asked = new LinkedHashMap<>();
        for (NodeInfo node : otherNodes(membership)) {
            asked.put(node, runtime.endpoint()
                    .request(node.getAddress(), NodeMessageType.NODE_REPORT_VALUE, ReportRequest.getDefaultInstance(),
                            REPORT_WAIT)
                    .thenApply(reply -> reply.decode(NodeReport.parser())));
        }
        List<NodeReport> reports = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        asked.forEach((node, report) -> {
            try {
                reports.add(report.get());
            } catch (Exception e) {
                unreachable.add("node " + node.getId() + " (pid " + node.getPid() + "): " + e.getMessage());
            }
        });
        // Last: the workers, reporting, told the home which copies they freed, which frees masters here.
        reports.add(0, runtime.report());
        RunReport.write(options.report(), started, reports, unreachable);
    }

    private void reapWorkers() {
        for (Process worker : workers) {
            try {
                if (!worker.waitFor(3, TimeUnit.SECONDS)) {
                    Log.warn("worker pid " + worker.pid() + " did not stop when the home ended; killing it");
                    worker.destroyForcibly();
                }
            } catch (InterruptedException e) {
                worker.destroyForcibly();
            }
        }
    }
}
