package dev.distvm.mpi.launch;

import dev.distvm.common.ChildJvm;
import dev.distvm.coordinator.Coordinator;
import dev.distvm.coordinator.MembershipSettings;
import dev.distvm.mpi.engine.Job;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportConfig;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

/**
 * {@code dist mpirun}: starts the ranks of an MPI job, as JVMs on this host (rank discovery through
 * a coordinator that mpirun runs) or as threads of one JVM ({@code --threads}), forwards their
 * output, and returns the first non-zero exit code; when one rank fails the others are stopped.
 */
public final class MpiRun {
    static final String USAGE = """
            usage: dist mpirun -np N [--threads] [--prefix] [--hosts localhost] [--bind tcp://HOST[:PORT]] [--failure-timeout MS] -- [java options] (-cp APP Main | -jar app.jar) [args]
              -np N        number of ranks (1..256)
              --threads    run the ranks as threads of one JVM (shared-memory messages) instead of N JVMs
              --prefix     prefix each line a rank prints with [rank]
              --hosts H    hosts to run on; only localhost is supported so far
              --bind A     where the job's coordinator listens (default a free loopback port), e.g. to
                           watch the job with `dist status` from another host; the ranks' membership
                           endpoints listen on the same host, their messages stay on loopback.
                           One address, not 0.0.0.0: the ranks run on this host and tell each other one.
              --failure-timeout MS  silence after which a suspected rank is declared dead without
                           proof of its death (default 30000; a rank that exits is found at once)
            Exit code: the first non-zero exit code of a rank (the others are then stopped), else 0.
            """;

    private MpiRun() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs mpirun with command-line arguments; returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Launch launch;
        try {
            launch = Launch.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("mpirun: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        if (launch == null) {
            out.print(USAGE);
            return 0;
        }
        if (launch.threads) {
            return ThreadsJob.run(launch.ranks, launch.classPath.stream().map(Path::of).toList(), launch.mainClass,
                    launch.programArgs.toArray(String[]::new), err);
        }
        return processes(launch, out, err);
    }

    /** What the command line asks for. */
    record Launch(int ranks, boolean threads, boolean prefix, MembershipSettings membership, String bind,
                  List<String> javaOptions, List<String> classPath, String mainClass, List<String> programArgs) {

        static Launch parse(String[] args) throws IOException {
            int ranks = -1;
            boolean threads = false;
            boolean prefix = false;
            MembershipSettings membership = MembershipSettings.DEFAULT;
            String bind = null;
            int i = 0;
            for (; i < args.length && !args[i].equals("--"); i++) {
                switch (args[i]) {
                    case "-h", "--help" -> {
                        return null;
                    }
                    case "-np", "-n" -> ranks = number(args, ++i);
                    case "--threads" -> threads = true;
                    case "--prefix" -> prefix = true;
                    case "--failure-timeout" -> membership = MembershipSettings.withFailureTimeout(Duration.ofMillis(
                            bounded(args, ++i, "--failure-timeout", MembershipSettings.MIN_FAILURE_TIMEOUT_MILLIS,
                                    MembershipSettings.MAX_FAILURE_TIMEOUT_MILLIS)));
                    case "--bind" -> bind = oneAddress(value(args, ++i, "--bind"));
                    case "--hosts" -> {
                        String hosts = value(args, ++i, "--hosts");
                        for (String host : hosts.split(",")) {
                            if (!host.equals("localhost") && !host.equals("127.0.0.1")) {
                                throw new IllegalArgumentException("host '" + host
                                        + "': only localhost is supported so far (ranks bind to loopback)");
                            }
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown option '" + args[i]
                            + "'; put java options and the program after --");
                }
            }
            if (ranks < 1 || ranks > 256) {
                throw new IllegalArgumentException("-np must be given, from 1 to 256");
            }
            if (i >= args.length - 1) {
                throw new IllegalArgumentException("nothing to run after --");
            }
            List<String> javaOptions = new ArrayList<>();
            List<String> classPath = new ArrayList<>();
            String mainClass = null;
            List<String> programArgs = new ArrayList<>();
            for (i++; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("-cp") || arg.equals("-classpath") || arg.equals("--class-path")) {
                    classPath.addAll(Arrays.asList(value(args, ++i, arg).split(File.pathSeparator)));
                } else if (arg.equals("-jar")) {
                    String jar = value(args, ++i, "-jar");
                    classPath.add(jar);
                    mainClass = mainClassOf(jar);
                    programArgs.addAll(Arrays.asList(args).subList(i + 1, args.length));
                    break;
                } else if (arg.startsWith("-")) {
                    javaOptions.add(arg);
                } else {
                    mainClass = arg;
                    programArgs.addAll(Arrays.asList(args).subList(i + 1, args.length));
                    break;
                }
            }
            if (mainClass == null) {
                throw new IllegalArgumentException("no main class (give -cp APP Main, or -jar app.jar)");
            }
            if (threads && bind != null) {
                throw new IllegalArgumentException("--bind is for ranks that are JVMs; ranks that are threads"
                        + " (--threads) have no addresses");
            }
            if (threads && !javaOptions.isEmpty()) {
                throw new IllegalArgumentException("java options " + javaOptions
                        + " cannot apply to ranks that are threads; give them to the JVM that runs mpirun");
            }
            return new Launch(ranks, threads, prefix, membership, bind == null ? "tcp://127.0.0.1:0" : bind,
                    javaOptions, classPath, mainClass, programArgs);
        }

        private static String oneAddress(String text) {
            String bind = TcpAddress.normalize("--bind", text, 0);
            if (TcpAddress.isWildcard(bind)) {
                throw new IllegalArgumentException("--bind " + text + " is every interface; the ranks run on this host"
                        + " and must tell each other one address: bind one, e.g. tcp://10.0.0.5:7000");
            }
            return bind;
        }

        private static int number(String[] args, int i) {
            return whole(value(args, i, "-np"), "-np");
        }

        private static int bounded(String[] args, int i, String option, int min, int max) {
            int number = whole(value(args, i, option), option);
            if (number < min || number > max) {
                throw new IllegalArgumentException(option + " must be from " + min + " to " + max + ", got " + number);
            }
            return number;
        }

        private static int whole(String value, String option) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a whole number, got '" + value + "'");
            }
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static String mainClassOf(String jar) throws IOException {
            try (JarFile file = new JarFile(jar)) {
                String main = file.getManifest() == null ? null : file.getManifest().getMainAttributes().getValue("Main-Class");
                if (main == null) {
                    throw new IllegalArgumentException(jar + " has no Main-Class in its manifest; use -cp " + jar + " Main");
                }
                return main;
            }
        }
    }

    // ---- processes ----------------------------------------------------------------------------

    private static int processes(Launch launch, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        ClusterSecret secret = ClusterSecret.random();
        List<Process> ranks = new ArrayList<>();
        List<Thread> pumps = new ArrayList<>();
        Thread stopRanks = new Thread(() -> ranks.forEach(Process::destroyForcibly), "mpirun-stop-ranks");
        Runtime.getRuntime().addShutdownHook(stopRanks);
        try (Coordinator coordinator = Coordinator.start(Endpoint.open(TransportConfig.loopback(secret)
                        .withBindAddress(launch.bind)),
                launch.membership)) {
            List<String> classPath = new ArrayList<>(launch.classPath);
            classPath.add(ChildJvm.distJar().toString());
            for (int rank = 0; rank < launch.ranks; rank++) {
                List<String> command = new ArrayList<>();
                command.add(ChildJvm.java());
                command.addAll(launch.javaOptions);
                command.add("-cp");
                command.add(String.join(File.pathSeparator, classPath));
                command.add(launch.mainClass);
                command.addAll(launch.programArgs);
                ProcessBuilder builder = new ProcessBuilder(command);
                builder.environment().put(ClusterSecret.ENV, secret.value());
                builder.environment().put(Job.RANK_ENV, String.valueOf(rank));
                builder.environment().put(Job.SIZE_ENV, String.valueOf(launch.ranks));
                builder.environment().put(Job.COORDINATOR_ENV, coordinator.address());
                builder.environment().put(Job.BIND_ENV, launch.bind.substring(0, launch.bind.lastIndexOf(':')) + ":0");
                builder.environment().put(Job.PARENT_ENV, String.valueOf(ProcessHandle.current().pid()));
                builder.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
                Process process = builder.start();
                synchronized (ranks) {
                    ranks.add(process);
                }
                String label = launch.prefix ? "[" + rank + "] " : "";
                pumps.add(ChildJvm.forwardLines(process.getInputStream(), out, label, "mpirun-output"));
                pumps.add(ChildJvm.forwardLines(process.getErrorStream(), err, label, "mpirun-output"));
            }
            int exitCode = awaitRanks(ranks, err);
            for (Thread pump : pumps) {
                pump.join(2_000); // the last lines a rank wrote
            }
            return exitCode;
        } finally {
            Runtime.getRuntime().removeShutdownHook(stopRanks);
        }
    }

    /** Waits for every rank; the first to fail stops the others and gives the exit code. */
    private static int awaitRanks(List<Process> ranks, PrintStream err) throws InterruptedException {
        int exitCode = 0;
        List<Process> running = new ArrayList<>(ranks);
        while (!running.isEmpty()) {
            for (int i = 0; i < running.size(); i++) {
                Process rank = running.get(i);
                if (rank.waitFor(20, TimeUnit.MILLISECONDS)) {
                    running.remove(i--);
                    if (rank.exitValue() != 0 && exitCode == 0) {
                        exitCode = rank.exitValue();
                        err.println("mpirun: rank " + ranks.indexOf(rank) + " (pid " + rank.pid() + ") exited with "
                                + exitCode + "; stopping the other ranks");
                        running.forEach(Process::destroyForcibly);
                    }
                }
            }
        }
        return exitCode;
    }
}
