package dev.distvm.node;

import dev.distvm.coordinator.MembershipSettings;
import dev.distvm.coordinator.MetricsEndpoint;
import dev.distvm.profile.ProfileFiles;
import dev.distvm.transport.TcpAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The options of {@code -javaagent:dist.jar=key=value,...}, validated in one place. Every bad
 * option is reported with the list of valid ones.
 */
public record AgentOptions(
        Role role, int nodes, String join, String bind, String advertise, Path report, Duration failureTimeout,
        boolean verbose, long parentPid, boolean encrypt, Path profile, int profileRate, InetSocketAddress metrics) {

    public enum Role { HOME, WORKER }

    public static final int MAX_LOCAL_NODES = 64;
    /** Bursts of sampled accesses a second when profiling, unless {@code profile-rate} says otherwise. */
    public static final int DEFAULT_PROFILE_RATE = 1000;
    public static final int MAX_PROFILE_RATE = 10_000;

    /** Each option with its meaning, in the order `--help` shows them. */
    static final Map<String, String> VALID = new LinkedHashMap<>();

    static {
        VALID.put("role", "home (default: runs main) or worker (serves the cluster, no main)");
        VALID.put("nodes", "number of nodes of a local cluster, home included (1.." + MAX_LOCAL_NODES + ", default 1)");
        VALID.put("join", "tcp://HOST:PORT of a running coordinator (default for a home: start one embedded)");
        VALID.put("bind", "tcp://HOST[:PORT] this node listens on (default tcp://127.0.0.1:0, a free loopback port;"
                + " port 0 or none: a free one)");
        VALID.put("advertise", "tcp://HOST[:PORT] peers are told to reach this node at, where it is not the bind"
                + " address (needed with bind=tcp://0.0.0.0; no port: the bound one)");
        VALID.put("report", "FILE to write the run report to, as JSON, when the home ends");
        VALID.put("failure-timeout", "milliseconds a suspected node may stay silent before it is declared dead without"
                + " proof of its death (" + MembershipSettings.MIN_FAILURE_TIMEOUT_MILLIS + ".." + MembershipSettings.MAX_FAILURE_TIMEOUT_MILLIS + ", default "
                + MembershipSettings.DEFAULT_FAILURE_TIMEOUT.toMillis() + ")");
        VALID.put("verbose", "true or false (default false): log the cluster's life and where each thread runs on standard error");
        VALID.put("encrypt", "true or false (default false): encrypt traffic on loopback too (off loopback it always is)");
        VALID.put("profile", "FILE.json or FILE.html: profile which sites touch objects another thread wrote since (the"
                + " accesses that would cross nodes), summarized on standard error and written to FILE (JSON, or an HTML"
                + " report with charts) when the home ends; with nodes=1 only");
        VALID.put("profile-rate", "bursts of sampled accesses a second when profiling (0: count every access, many times"
                + " slower; 1.." + MAX_PROFILE_RATE + ", default " + DEFAULT_PROFILE_RATE + ")");
        VALID.put("metrics", "PORT or HOST:PORT: the embedded coordinator serves the node table as OpenMetrics text at"
                + " http://HOST:PORT/metrics, for Prometheus (PORT alone: on loopback; 0: a free port, logged)");
        VALID.put("parent", "pid of the JVM that started this worker; the worker exits when it ends (set by dist)");
    }

    /** A bad option; its message names the problem and lists the valid options. */
    public static final class InvalidOptionException extends IllegalArgumentException {
        InvalidOptionException(String problem) {
            super(problem + "\n" + usage());
        }
    }

    public static String usage() {
        StringBuilder text = new StringBuilder("valid dist agent options (-javaagent:dist.jar=key=value,...):\n");
        VALID.forEach((key, meaning) -> text.append(String.format("  %-16s %s%n", key, meaning)));
        return text.toString();
    }

    public static AgentOptions parse(String arguments) {
        Role role = Role.HOME;
        int nodes = 1;
        String join = null;
        String bind = "tcp://127.0.0.1:0";
        String advertise = null;
        Path report = null;
        Duration failureTimeout = MembershipSettings.DEFAULT_FAILURE_TIMEOUT;
        boolean verbose = false;
        long parent = 0;
        boolean encrypt = false;
        Path profile = null;
        int profileRate = DEFAULT_PROFILE_RATE;
        InetSocketAddress metrics = null;
        boolean nodesGiven = false;
        if (arguments != null && !arguments.isBlank()) {
            for (String option : arguments.split(",")) {
                int eq = option.indexOf('=');
                if (eq <= 0) {
                    throw new InvalidOptionException("dist agent option '" + option + "' is not of the form key=value");
                }
                String key = option.substring(0, eq).trim();
                String value = option.substring(eq + 1).trim();
                switch (key) {
                    case "role" -> role = switch (value) {
                        case "home" -> Role.HOME;
                        case "worker" -> Role.WORKER;
                        default -> throw new InvalidOptionException("role must be home or worker, got '" + value + "'");
                    };
                    case "nodes" -> {
                        nodes = integer(key, value, 1, MAX_LOCAL_NODES);
                        nodesGiven = true;
                    }
                    case "join" -> join = address(key, value);
                    case "bind" -> bind = portOptional(key, value);
                    case "advertise" -> advertise = portOptional(key, value);
                    case "report" -> {
                        if (value.isEmpty()) {
                            throw new InvalidOptionException("report needs a file name");
                        }
                        report = Path.of(value);
                    }
                    case "failure-timeout" -> failureTimeout = Duration.ofMillis(
                            integer(key, value, MembershipSettings.MIN_FAILURE_TIMEOUT_MILLIS, MembershipSettings.MAX_FAILURE_TIMEOUT_MILLIS));
                    case "verbose" -> verbose = bool(key, value);
                    case "parent" -> parent = integer(key, value, 1, Integer.MAX_VALUE);
                    case "encrypt" -> encrypt = bool(key, value);
                    case "profile" -> {
                        if (!ProfileFiles.isProfileName(value)) {
                            throw new InvalidOptionException("profile needs a file name ending in .json or .html, got '"
                                    + value + "'");
                        }
                        profile = Path.of(value);
                    }
                    case "profile-rate" -> profileRate = integer(key, value, 0, MAX_PROFILE_RATE);
                    case "metrics" -> {
                        try {
                            metrics = MetricsEndpoint.address(value);
                        } catch (IllegalArgumentException e) {
                            throw new InvalidOptionException(e.getMessage());
                        }
                    }
                    default -> throw new InvalidOptionException("unknown dist agent option '" + key + "'");
                }
            }
        }
        if (role == Role.WORKER && join == null) {
            throw new InvalidOptionException("a worker needs join=tcp://HOST:PORT, the address of the coordinator");
        }
        if (role == Role.WORKER && (nodesGiven || report != null)) {
            throw new InvalidOptionException("nodes and report are options of the home, not of a worker");
        }
        if (profile != null && (role == Role.WORKER || nodes > 1 || join != null)) {
            throw new InvalidOptionException("profile works at nodes=1 only so far: there it shows which accesses would cross"
                    + " nodes; profiling a run across nodes is a later step");
        }
        if (metrics != null && (role == Role.WORKER || join != null)) {
            throw new InvalidOptionException("metrics are served by the coordinator: a home with join= uses one started"
                    + " apart, so start that one with ./dist coordinator --metrics PORT");
        }
        return new AgentOptions(role, nodes, join, bind, advertise, report, failureTimeout, verbose, parent, encrypt, profile,
                profileRate, metrics);
    }

    private static int integer(String key, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the range
        }
        throw new InvalidOptionException(key + " must be a whole number from " + min + " to " + max + ", got '" + value + "'");
    }

    private static boolean bool(String key, String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidOptionException(key + " must be true or false, got '" + value + "'");
        };
    }

    private static String address(String key, String value) {
        if (!value.matches("tcp://[^:/\\s]+:\\d{1,5}")) {
            throw new InvalidOptionException(key + " must look like tcp://HOST:PORT, got '" + value + "'");
        }
        return value;
    }

    /** An address whose port may be left out: 0, a free one for bind, the bound one for advertise. */
    private static String portOptional(String key, String value) {
        try {
            return TcpAddress.normalize(key, value, 0);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException(e.getMessage());
        }
    }
}
