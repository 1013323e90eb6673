package dev.distvm.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import dev.distvm.common.ChildJvm;
import dev.distvm.profile.ProfileFiles;
import dev.distvm.profile.ProfileOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code dist attach PID}: loads dist.jar into a running JVM (the JDK's Attach API, the agent's
 * options passed whole), which profiles it for a while and reports back over a loopback connection
 * this command listens on; the report is printed here, and written to {@code --profile FILE} as
 * JSON or as an HTML report. The target prints nothing and keeps running whatever happens; every
 * failure is told here.
 */
final class AttachCommand {
    static final String USAGE = """
            attach PID [--duration 30s] [--rate N | --every-access] [--profile FILE.json|FILE.html]
                profile a running JVM for a while (default 30 s; Ctrl-C ends it early): which sites
                touch objects another thread wrote since, the accesses that would cross the network
                with its threads on several nodes. dist rewrites the JVM's application classes for the
                window (retransformation) and gives them their own code back at its end; the target
                prints nothing and never exits because of dist. N bursts of 32 accesses a second are
                sampled (default 1000, at most 10000); --every-access counts each one, exact and many
                times slower. The summary is printed here; --profile FILE.json writes every site,
                thread and stack as JSON, FILE.html a report with charts (by class, site and stack,
                where threads would run on 2, 4 or 8 nodes, and what would cross between nodes).
                The target must run as this user; on JDK 21 and later it warns of the dynamically
                loaded agent unless started with -XX:+EnableDynamicAgentLoading.
                (Making a running JVM the home of a cluster is a later step: --nodes is refused.)
            """;
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)?");
    /** Time for the target to load the agent and call back, beyond the window itself. */
    private static final int ANSWER_MILLIS = 60_000;

    private AttachCommand() {}

    static int run(List<String> args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.isEmpty() || args.get(0).startsWith("-")) {
            if (!args.isEmpty() && (args.get(0).equals("--help") || args.get(0).equals("-h"))) {
                throw new Main.HelpRequested("attach");
            }
            throw new Main.UsageException("attach: the first argument is the pid of the JVM to profile (jps lists them)");
        }
        String pid = args.get(0);
        if (!pid.matches("\\d{1,10}")) {
            throw new Main.UsageException("attach: '" + pid + "' is not a pid (jps lists the JVMs' pids)");
        }
        if (args.contains("--nodes")) {
            throw new Main.UsageException("attach: --nodes: making a running JVM the home of a cluster is a later step;"
                    + " start the program with ./dist run --nodes N, or profile it here without --nodes");
        }
        List<String> valued = new ArrayList<>(args.subList(1, args.size()));
        boolean everyAccess = valued.remove("--every-access");
        Main.Options options = new Main.Options(valued, "attach", "--duration", "--rate", "--profile", "--every-access");
        long millis = options.has("--duration") ? duration(options.required("--duration")) : 30_000;
        if (everyAccess && options.has("--rate")) {
            throw new Main.UsageException("attach: --rate and --every-access exclude each other");
        }
        int rate = everyAccess ? 0 : options.has("--rate")
                ? options.integer("--rate", 1, ProfileOptions.MAX_RATE) : ProfileOptions.DEFAULT_RATE;
        Path file = options.has("--profile") ? Path.of(options.required("--profile")) : null;
        if (file != null && !ProfileFiles.isProfileName(file.getFileName().toString())) {
            throw new Main.UsageException("attach: --profile writes JSON or HTML: name the file FILE.json or FILE.html");
        }
        byte[] tokenBytes = new byte[16];
        new SecureRandom().nextBytes(tokenBytes);
        String token = HexFormat.of().formatHex(tokenBytes);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ProfileOptions request = new ProfileOptions(listener.getLocalPort(), token, millis, rate);
            if (!load(pid, request, err)) {
                return 1;
            }
            listener.setSoTimeout(ANSWER_MILLIS);
            try (Connection target = acceptFromTarget(listener, token)) {
                if (target == null) {
                    err.println("dist: attach: pid " + pid + " loaded dist but never called back; nothing was profiled");
                    return 1;
                }
                target.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, millis + ANSWER_MILLIS));
                return relay(target.in(), file, out, err);
            }
        }
    }

    static long duration(String text) {
        Matcher matcher = DURATION.matcher(text);
        if (matcher.matches()) {
            long value = Long.parseLong(matcher.group(1));
            String unit = matcher.group(2) == null ? "s" : matcher.group(2);
            long millis = switch (unit) {
                case "ms" -> value;
                case "m" -> value * 60_000;
                default -> value * 1000;
            };
            if (millis >= 1 && millis <= ProfileOptions.MAX_DURATION_MILLIS) {
                return millis;
            }
        }
        throw new Main.UsageException("attach: --duration takes a length such as 30s, 500ms or 2m (up to 24 h), got '" + text + "'");
    }

    /** Loads the agent; says why not, with what to do, when the JVM refuses. */
    private static boolean load(String pid, ProfileOptions request, PrintStream err) throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(pid);
        } catch (AttachNotSupportedException | IOException e) {
            err.println("dist: attach: cannot attach to pid " + pid + " (" + e.getMessage() + "): is it a JVM of this user"
                    + " (jps lists them), started without -XX:+DisableAttachMechanism?");
            return false;
        }
        try {
            vm.loadAgent(ChildJvm.distJar().toString(), request.toAgentArguments());
            return true;
        } catch (AgentLoadException | AgentInitializationException e) {
            err.println("dist: attach: pid " + pid + " could not start dist's agent (" + e.getMessage() + "); its standard error"
                    + " says why (JDK 21 and later refuse agents loaded at run time when started with"
                    + " -XX:-EnableDynamicAgentLoading); nothing in it was changed");
            return false;
        } finally {
            vm.detach();
        }
    }

    /** The target's connection and what it sends. */
    private record Connection(Socket socket, BufferedReader in) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** The target's connection, once it proved it is the one this command asked (its first line is our token). */
    private static Connection acceptFromTarget(ServerSocket listener, String token) throws IOException {
        byte[] expected = ("token " + token).getBytes(StandardCharsets.UTF_8);
        while (true) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (SocketTimeoutException e) {
                return null;
            }
            socket.setSoTimeout(ANSWER_MILLIS);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String first = in.readLine();
            if (first != null && MessageDigest.isEqual(first.getBytes(StandardCharsets.UTF_8), expected)) {
                return new Connection(socket, in);
            }
            socket.close();
        }
    }

    private static int relay(BufferedReader in, Path file, PrintStream out, PrintStream err) throws IOException {
        boolean failed = false;
        boolean reported = false;
        for (String line; (line = in.readLine()) != null; ) {
            int space = line.indexOf(' ');
            String kind = space < 0 ? line : line.substring(0, space);
            String text = space < 0 ? "" : line.substring(space + 1);
            switch (kind) {
                case "say" -> err.println("dist: " + text);
                case "error" -> {
                    err.println("dist: attach: error: " + text);
                    failed = true;
                }
                case "report" -> out.println(text);
                case "json" -> {
                    reported = true;
                    if (file != null) {
                        ProfileFiles.write(file, text);
                        err.println("dist: wrote " + file);
                    }
                }
                case "end" -> {
                    return failed || !reported ? 1 : 0;
                }
                default -> { }
            }
        }
        err.println("dist: attach: the target JVM went away before its profile was complete");
        return 1;
    }
}
