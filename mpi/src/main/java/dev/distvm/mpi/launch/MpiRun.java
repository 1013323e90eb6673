package dev.distvm.mpi.launch;

import dev.distvm.common.ChildJvm;
import dev.distvm.coordinator.Coordinator;
import dev.distvm.coordinator.MembershipSettings;
import dev.distvm.mpi.engine.Job;
import dev.distvm.mpi.launch.proto.LaunchRank;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportConfig;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

/**
 * {@code dist mpirun}: starts the ranks of an MPI job, as JVMs on this host and, through their
 * daemons, on others (rank discovery through a coordinator that mpirun runs), or as threads of one
 * JVM ({@code --threads}), forwards their output, and returns the first non-zero exit code; when
 * one rank fails the others are stopped.
 */
public final class MpiRun {
    static final String USAGE = """
            usage: dist mpirun -np N [--threads] [--prefix] [--hosts H,H | --hostfile FILE] [--bind tcp://HOST[:PORT]] [--failure-timeout MS] [--start-timeout MS] -- [java options] (-cp APP Main | -jar app.jar) [args]
              -np N        number of ranks (1..256)
              --threads    run the ranks as threads of one JVM (shared-memory messages) instead of N JVMs
              --prefix     prefix each line a rank prints with [rank]
              --hosts H    hosts to run on, e.g. 10.0.0.1,10.0.0.2:7200: ranks go round robin. This machine's
                           ranks are mpirun's children; another host's are started by its daemon
                           (`dist daemon --bind tcp://HOST`, port %d unless given), which needs the
                           same DIST_SECRET as mpirun and the same paths to the program (a shared file
                           system). Default: localhost.
              --hostfile F a host per line, `HOST[:PORT] [slots=N]`: ranks fill each host's slots in turn
              --bind A     where the job's coordinator listens (default a free loopback port, or with other
                           hosts this host's address toward them), e.g. to watch the job with `dist status`
                           from another host; this host's ranks listen on the same host.
                           One address, not 0.0.0.0: the ranks must tell each other one.
              --failure-timeout MS  silence after which a suspected rank is declared dead without
                           proof of its death (default 30000; a rank that exits is found at once)
              --start-timeout MS    how long ranks wait in MPI.Init for all the others to start
                           (default %d; raise it on a loaded machine or a slow file system)
            Exit code: the first non-zero exit code of a rank (the others are then stopped), %d for a
            rank lost with its host's daemon, else 0. Only a rank on this machine reads mpirun's input.
            """.formatted(Daemon.DEFAULT_PORT, Job.DEFAULT_START_TIMEOUT_MILLIS, RemoteRanks.LOST);
    /** How long ranks on other hosts get to report their end once mpirun has stopped them. */
    private static final long STOPPED_RANK_GRACE_MILLIS = 10_000;
    private static final int MIN_START_TIMEOUT_MILLIS = 1_000;
    private static final int MAX_START_TIMEOUT_MILLIS = 3_600_000;

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
    record Launch(int ranks, boolean threads, boolean prefix, MembershipSettings membership, long startTimeoutMillis,
                  String bind, Hosts hosts, List<String> javaOptions, List<String> classPath, String mainClass, List<String> programArgs) {

        static Launch parse(String[] args) throws IOException {
            int ranks = -1;
            boolean threads = false;
            boolean prefix = false;
            MembershipSettings membership = MembershipSettings.DEFAULT;
            long startTimeout = Job.DEFAULT_START_TIMEOUT_MILLIS;
            String bind = null;
            Hosts hosts = null;
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
                    case "--start-timeout" -> startTimeout = bounded(args, ++i, "--start-timeout", MIN_START_TIMEOUT_MILLIS,
                            MAX_START_TIMEOUT_MILLIS);
                    case "--bind" -> bind = oneAddress(value(args, ++i, "--bind"));
                    case "--hosts" -> hosts = oneHostList(hosts, Hosts.ofList(value(args, ++i, "--hosts")));
                    case "--hostfile" -> hosts = oneHostList(hosts, Hosts.ofFile(Path.of(value(args, ++i, "--hostfile"))));
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
            if (threads && hosts != null) {
                throw new IllegalArgumentException("ranks that are threads (--threads) run in this JVM; --hosts and"
                        + " --hostfile are for ranks that are JVMs");
            }
            if (threads && !javaOptions.isEmpty()) {
                throw new IllegalArgumentException("java options " + javaOptions
                        + " cannot apply to ranks that are threads; give them to the JVM that runs mpirun");
            }
            hosts = hosts == null ? Hosts.LOCAL : hosts;
            Hosts.Host remote = hosts.firstRemote();
            if (bind == null) {
                bind = "tcp://" + (remote == null ? "127.0.0.1" : Hosts.addressToward(remote)) + ":0";
            } else if (remote != null && TcpAddress.isLoopback(bind)) {
                throw new IllegalArgumentException("--bind " + bind + " is loopback, but ranks run on " + remote.name()
                        + ", which could not reach it: bind this host's address on their network");
            }
            return new Launch(ranks, threads, prefix, membership, startTimeout, bind, hosts, javaOptions, classPath, mainClass,
                    programArgs);
        }

        private static Hosts oneHostList(Hosts already, Hosts given) {
            if (already != null) {
                throw new IllegalArgumentException("give the hosts once: --hosts or --hostfile");
            }
            return given;
        }

        private static String oneAddress(String text) {
            String bind = TcpAddress.normalize("--bind", text, 0);
            if (TcpAddress.isWildcard(bind)) {
                throw new IllegalArgumentException("--bind " + text + " is every interface; the ranks must tell each"
                        + " other one address: bind one, e.g. tcp://10.0.0.5:7000");
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
        boolean elsewhere = launch.hosts.firstRemote() != null;
        ClusterSecret secret = elsewhere ? ClusterSecret.fromEnvironment() : ClusterSecret.random();
        if (secret == null) {
            err.println("mpirun: ranks run on other hosts, whose daemons admit only holders of their cluster secret:"
                    + " set " + ClusterSecret.ENV + " to it");
            return 2;
        }
        List<RankProcess> ranks = new ArrayList<>();
        List<Thread> pumps = new ArrayList<>();
        Thread stopRanks = new Thread(() -> stopAll(ranks), "mpirun-stop-ranks");
        Runtime.getRuntime().addShutdownHook(stopRanks);
        Endpoint endpoint = Endpoint.open(TransportConfig.loopback(secret).withBindAddress(launch.bind));
        String host = TcpAddress.withoutPort(launch.bind);
        long job = new SecureRandom().nextLong();
        try (RemoteRanks remote = new RemoteRanks(endpoint, job, out, err, launch.prefix);
             Coordinator coordinator = Coordinator.start(endpoint, launch.membership)) {
            List<String> classPath = new ArrayList<>();
            launch.classPath.forEach(entry -> classPath.add(Path.of(entry).toAbsolutePath().toString()));
            List<Hosts.Host> placement = launch.hosts.place(launch.ranks);
            for (int rank = 0; rank < launch.ranks; rank++) {
                Hosts.Host on = placement.get(rank);
                RankProcess started;
                try {
                    started = on.local()
                            ? startHere(launch, rank, classPath, secret, coordinator.address(),
                                    // alone on this machine, ranks listen where mpirun does; with others, on an address they reach
                                    on.loopback() ? host : "tcp://" + on.name(), out, err, pumps)
                            : remote.launch(on, LaunchRank.newBuilder().setJob(job).setRank(rank).setSize(launch.ranks)
                                    .setMpirun(endpoint.address()).setCoordinator(coordinator.address())
                                    .setHost(on.name()).setStartTimeoutMillis(launch.startTimeoutMillis)
                                    .addAllJavaOptions(launch.javaOptions).addAllClassPath(classPath)
                                    .setMainClass(launch.mainClass).addAllArgs(launch.programArgs)
                                    .setWorkingDirectory(Path.of("").toAbsolutePath().toString()).build());
                } catch (IllegalStateException e) {
                    err.println("mpirun: " + e.getMessage());
                    stopAll(ranks);
                    awaitRanks(ranks, err);
                    return 1;
                }
                synchronized (ranks) {
                    ranks.add(started);
                }
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

    /** Starts a rank as this process's child, its output forwarded to mpirun's. */
    private static RankProcess startHere(Launch launch, int rank, List<String> classPath, ClusterSecret secret,
                                         String coordinator, String host, PrintStream out, PrintStream err,
                                         List<Thread> pumps) {
        ProcessBuilder builder = RankJvm.command(launch.javaOptions, classPath, launch.mainClass, launch.programArgs);
        Job.environment(builder.environment(), secret, rank, launch.ranks, coordinator, host + ":0",
                ProcessHandle.current().pid(), launch.startTimeoutMillis);
        builder.redirectInput(rank == 0 ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start rank " + rank + ": " + e.getMessage(), e);
        }
        String label = launch.prefix ? "[" + rank + "] " : "";
        pumps.add(ChildJvm.forwardLines(process.getInputStream(), out, label, "mpirun-output"));
        pumps.add(ChildJvm.forwardLines(process.getErrorStream(), err, label, "mpirun-output"));
        return new LocalRank(rank, process);
    }

    private static void stopAll(List<RankProcess> ranks) {
        synchronized (ranks) {
            ranks.forEach(RankProcess::stop);
        }
    }

    /**
     * Waits for every rank; the first to fail stops the others and gives the exit code. Ranks on
     * other hosts that have not reported their end {@value #STOPPED_RANK_GRACE_MILLIS} ms after being
     * stopped are given up on (their host may be cut off), so that mpirun ends within seconds of its job.
     */
    private static int awaitRanks(List<RankProcess> ranks, PrintStream err) throws InterruptedException {
        int exitCode = 0;
        long stoppedAt = 0; // when exitCode became non-zero
        List<RankProcess> running = new ArrayList<>(ranks);
        while (!running.isEmpty()) {
            for (int i = 0; i < running.size(); i++) {
                RankProcess rank = running.get(i);
                RankProcess.Ended ended = rank.awaitEnd(20);
                if (ended != null) {
                    running.remove(i--);
                    if (ended.status() != 0 && exitCode == 0) {
                        exitCode = ended.status();
                        err.println("mpirun: rank " + rank.rank() + " (" + rank.where() + ") " + ended.how()
                                + "; stopping the other ranks");
                        running.forEach(RankProcess::stop);
                        stoppedAt = System.nanoTime();
                    } else if (ended.status() == RemoteRanks.LOST) {
                        // the first failure may be a rank that lost its connection to this one: say what caused it
                        err.println("mpirun: rank " + rank.rank() + " (" + rank.where() + ") " + ended.how());
                    }
                }
            }
            if (exitCode != 0 && System.nanoTime() - stoppedAt > TimeUnit.MILLISECONDS.toNanos(STOPPED_RANK_GRACE_MILLIS)) {
                for (RankProcess rank : running) {
                    err.println("mpirun: rank " + rank.rank() + " (" + rank.where() + ") did not report its end within "
                            + STOPPED_RANK_GRACE_MILLIS / 1000 + " s of being stopped; giving up on it");
                }
                break;
            }
        }
        return exitCode;
    }
}
