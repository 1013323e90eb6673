package dev.distvm.cli;

import dev.distvm.common.ChildJvm;
import dev.distvm.coordinator.Coordinator;
import dev.distvm.coordinator.MembershipSettings;
import dev.distvm.coordinator.MetricsEndpoint;
import dev.distvm.coordinator.proto.MembershipType;
import dev.distvm.coordinator.proto.NodeInfo;
import dev.distvm.coordinator.proto.NodeState;
import dev.distvm.coordinator.proto.NodeTable;
import dev.distvm.coordinator.proto.StatusRequest;
import dev.distvm.mpi.launch.Daemon;
import dev.distvm.mpi.launch.MpiRun;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * The Java half of the {@code dist} command: the subcommands that run inside a JVM of their own
 * ({@code coordinator}, {@code status}, {@code attach}, {@code mpirun}, {@code daemon}). The shell script {@code ./dist} handles
 * the ones that start other JVMs or the build.
 */
public final class Main {
    /** Each command's synopsis and text, as its own {@code --help} prints them. */
    private static final Map<String, String> COMMANDS = commands(
            """
            coordinator --bind tcp://HOST:PORT [--advertise tcp://HOST[:PORT]] [--failure-timeout MS] [--metrics [HOST:]PORT]
                run a coordinator: node table, heartbeats, failure detection, load reports.
                --metrics serves the node table as OpenMetrics text at http://HOST:PORT/metrics for
                Prometheus (PORT alone: on loopback; plain HTTP without the secret, so bind another
                address only on a network you trust).
                Nodes on other hosts need an address of this host's network, not 127.0.0.1;
                binding 0.0.0.0 needs --advertise, the address they reach it at (no port: the bound one).
                A suspect is declared dead when its death is certain or after MS of silence
                (default 30000). Restarted at the same address, it takes its members back.
                The cluster secret comes from DIST_SECRET; without it one is made and printed.
            """,
            """
            status --coordinator tcp://HOST:PORT
                print the nodes of a cluster (DIST_SECRET must hold its secret)
            """,
            """
            top --coordinator tcp://HOST:PORT [--interval SECONDS] [--count N]
                the nodes of a cluster, live: redrawn every SECONDS (default 2) on a terminal,
                printed one after another otherwise; N times, or until Ctrl-C (DIST_SECRET as for status)
            """,
            """
            archive
                write the start-up archive (class-data sharing) of this JDK and dist.jar beside
                dist.jar, in cds/; nodes started by ./dist and their workers use it
            """,
            AttachCommand.USAGE,
            """
            mpirun -np N [--threads] [--prefix] [--hosts H,H | --hostfile FILE] [--bind tcp://HOST[:PORT]] -- [java options] (-cp APP Main | -jar app.jar) [args]
                run an MPI (mpiJava 1.2) program as N ranks; `mpirun --help` for more
            """,
            """
            daemon [--bind tcp://HOST[:PORT]]
                start the ranks of mpirun jobs run from other hosts (DIST_SECRET must be set)
            """);
    private static final String USAGE = "usage: java -jar dist.jar COMMAND [options]   (normally through ./dist)\n"
            + COMMANDS.values().stream().map(text -> text.indent(2)).collect(Collectors.joining());

    /** The commands by name (each text's first word), in the order given. */
    private static Map<String, String> commands(String... texts) {
        Map<String, String> byName = new LinkedHashMap<>();
        for (String text : texts) {
            byName.put(text.split("[ \n]", 2)[0], text);
        }
        return byName;
    }

    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            System.out.print(USAGE);
            System.exit(args.length == 0 ? 2 : 0);
        }
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        try {
            switch (args[0]) {
                case "coordinator" -> coordinator(new Options(rest, "coordinator", "--bind", "--advertise", "--failure-timeout",
                        "--metrics"));
                case "top" -> top(new Options(rest, "top", "--coordinator", "--interval", "--count"));
                case "status" -> status(new Options(rest, "status", "--coordinator"));
                case "archive" -> {
                    new Options(rest, "archive"); // refuses any option, answers --help
                    archive();
                }
                case "attach" -> System.exit(AttachCommand.run(rest, System.out, System.err));
                case "mpirun" -> System.exit(MpiRun.run(rest.toArray(String[]::new), System.out, System.err));
                case "daemon" -> System.exit(Daemon.run(rest.toArray(String[]::new), System.out, System.err));
                default -> throw new UsageException("unknown command '" + args[0] + "'");
            }
        } catch (HelpRequested help) {
            System.out.print(usage(help.command));
            System.exit(0);
        } catch (UsageException e) {
            System.err.println("dist: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
        } catch (TransportException | IllegalArgumentException e) {
            System.err.println("dist: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void coordinator(Options options) throws InterruptedException {
        String bind = TcpAddress.normalize("--bind", options.required("--bind"), 0);
        String advertise = options.has("--advertise")
                ? TcpAddress.normalize("--advertise", options.required("--advertise"), 0) : null;
        MembershipSettings settings = options.has("--failure-timeout")
                ? MembershipSettings.withFailureTimeout(Duration.ofMillis(options.integer("--failure-timeout",
                        MembershipSettings.MIN_FAILURE_TIMEOUT_MILLIS, MembershipSettings.MAX_FAILURE_TIMEOUT_MILLIS)))
                : MembershipSettings.DEFAULT;
        ClusterSecret secret = ClusterSecret.fromEnvironment();
        if (secret == null) {
            secret = ClusterSecret.random();
            System.out.println("cluster secret: " + secret.value());
            System.out.println("(give it to every node and to `dist status` as " + ClusterSecret.ENV + ")");
        }
        Coordinator coordinator = Coordinator.start(Endpoint.open(TransportConfig.loopback(secret).withBindAddress(bind)
                .withAdvertisedAddress(advertise)),
                settings);
        System.out.println("coordinator listening at " + coordinator.address() + " (failure timeout "
                + settings.failureTimeout().toMillis() + " ms)");
        if (options.has("--metrics")) {
            InetSocketAddress at = MetricsEndpoint.address(options.required("--metrics"));
            try {
                System.out.println("metrics (OpenMetrics, for Prometheus) at " + coordinator.serveMetrics(at).url());
            } catch (IOException e) {
                coordinator.close();
                throw new IllegalArgumentException(e.getMessage());
            }
        }
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(coordinator::close, "dist-coordinator-shutdown"));
        new CountDownLatch(1).await();
    }

    private static void archive() throws InterruptedException {
        try {
            new StartupArchiveWriter(ChildJvm.distJar(), System.err).write();
        } catch (IOException e) {
            System.err.println("dist: could not write the start-up archive: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void status(Options options) {
        String address = options.required("--coordinator");
        try (Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secretFor("status")))) {
            System.out.print(StatusTable.format(nodeTable(endpoint, address)));
        }
    }

    /** The node table, redrawn (a terminal) or printed again (a pipe) every interval. */
    private static void top(Options options) throws InterruptedException {
        String address = options.required("--coordinator");
        int seconds = options.has("--interval") ? options.integer("--interval", 1, 3600) : 2;
        int count = options.has("--count") ? options.integer("--count", 1, Integer.MAX_VALUE) : Integer.MAX_VALUE;
        boolean terminal = System.console() != null;
        try (Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secretFor("top")))) {
            for (int shown = 0; shown < count; shown++) {
                if (shown > 0) {
                    Thread.sleep(seconds * 1000L);
                }
                NodeTable table = nodeTable(endpoint, address);
                long alive = table.getNodesList().stream().filter(node -> node.getState() == NodeState.ALIVE).count();
                String heading = String.format("dist top: %s, %d node%s alive, %s (every %d s%s)%n", address, alive,
                        alive == 1 ? "" : "s", LocalTime.now().withNano(0), seconds,
                        count == Integer.MAX_VALUE ? "; Ctrl-C ends" : "");
                // On a terminal: cursor home and clear, so that the table stays in place.
                System.out.print((terminal ? "\033[H\033[2J" : shown > 0 ? "\n" : "") + heading + StatusTable.format(table));
                System.out.flush();
            }
        }
    }

    private static ClusterSecret secretFor(String command) {
        ClusterSecret secret = ClusterSecret.fromEnvironment();
        if (secret == null) {
            throw new IllegalArgumentException(command + " needs the cluster secret: set " + ClusterSecret.ENV);
        }
        return secret;
    }

    private static NodeTable nodeTable(Endpoint endpoint, String address) {
        return endpoint.call(address, MembershipType.STATUS_VALUE, StatusRequest.getDefaultInstance(),
                NodeTable.parser(), Duration.ofSeconds(3));
    }

    /** {@code COMMAND --help}: answered with that command's usage alone. */
    static final class HelpRequested extends RuntimeException {
        final String command;

        HelpRequested(String command) {
            super(command + " --help");
            this.command = command;
        }
    }

    /** What {@code COMMAND --help} prints. */
    static String usage(String command) {
        return "usage: dist " + COMMANDS.get(command);
    }

    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    /** {@code --key value} options of one subcommand, checked against the keys it accepts. */
    static final class Options {
        private final java.util.Map<String, String> values = new java.util.HashMap<>();

        Options(List<String> args, String command, String... accepted) {
            List<String> valid = List.of(accepted);
            for (int i = 0; i < args.size(); i++) {
                String key = args.get(i);
                if (key.equals("--help") || key.equals("-h")) {
                    throw new HelpRequested(command);
                }
                if (!valid.contains(key)) {
                    throw new UsageException(command + ": unknown option '" + key + "' ("
                            + (valid.isEmpty() ? "it takes none" : "valid: " + String.join(", ", valid)) + ")");
                }
                if (i + 1 >= args.size()) {
                    throw new UsageException(command + ": " + key + " needs a value");
                }
                values.put(key, args.get(++i));
            }
        }

        boolean has(String key) {
            return values.containsKey(key);
        }

        String required(String key) {
            String value = values.get(key);
            if (value == null) {
                throw new UsageException("missing " + key);
            }
            return value;
        }

        int integer(String key, int min, int max) {
            try {
                int n = Integer.parseInt(values.get(key));
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new UsageException(key + " must be a whole number from " + min + " to " + max + ", got '" + values.get(key) + "'");
        }
    }

    /** Renders the node table for people. */
    static final class StatusTable {
        private StatusTable() {}

        static String format(NodeTable table) {
            StringBuilder out = new StringBuilder(String.format("%-4s %-7s %-7s %-8s %-24s %6s %8s %14s %9s%n",
                    "ID", "ROLE", "STATE", "PID", "ADDRESS", "CPU", "RUNNABLE", "HEAP", "UPTIME"));
            StringBuilder suspects = new StringBuilder();
            for (NodeInfo node : table.getNodesList()) {
                long uptime = Math.max(0, table.getNowMillis() - node.getJoinedAtMillis()) / 1000;
                Long silentMillis = node.getState() == NodeState.ALIVE
                        ? table.getSuspectedSilentMillisMap().get(node.getId()) : null;
                out.append(String.format("%-4d %-7s %-7s %-8d %-24s %5.0f%% %8d %6d/%-6dM %8ds%n",
                        node.getId(), node.getRole().name().toLowerCase(),
                        silentMillis != null ? "suspect" : node.getState().name().toLowerCase(),
                        node.getPid(), node.getAddress(), node.getLoad().getCpu() * 100,
                        node.getLoad().getRunnableThreads(), node.getLoad().getHeapUsed() >> 20,
                        node.getLoad().getHeapMax() >> 20, uptime));
                if (silentMillis != null) {
                    suspects.append(String.format("node %d is suspected: silent for %.1f s; it is declared dead when"
                                    + " its death is certain, or after %.1f s of silence, unless it is heard from%n",
                            node.getId(), silentMillis / 1000.0, table.getFailureTimeoutMillis() / 1000.0));
                }
            }
            return out.append(suspects).toString();
        }
    }
}
