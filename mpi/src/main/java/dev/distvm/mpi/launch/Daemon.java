package dev.distvm.mpi.launch;

import com.google.protobuf.MessageLite;
import dev.distvm.common.DaemonThreads;
import dev.distvm.common.Log;
import dev.distvm.mpi.engine.Job;
import dev.distvm.mpi.launch.proto.LaunchRank;
import dev.distvm.mpi.launch.proto.LaunchType;
import dev.distvm.mpi.launch.proto.Launched;
import dev.distvm.mpi.launch.proto.RankExit;
import dev.distvm.mpi.launch.proto.RankOutput;
import dev.distvm.mpi.launch.proto.StopJob;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handler;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportConfig;
import dev.distvm.transport.TransportException;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code dist daemon}: starts the ranks of MPI jobs on this host for an mpirun on another, as MPJ
 * Express's daemon does. Only holders of the cluster secret reach it (the transport proves the
 * secret on every connection), and what they may ask is a rank: this host's java with dist.jar,
 * their class path, main class and arguments, which is running code of their choosing here, as
 * with any MPI launcher. The daemon forwards each rank's output and exit status to its mpirun, stops
 * a job's ranks when mpirun says so or when mpirun's port refuses connections (mpirun is gone), and
 * its ranks stop when it ends (they watch it as their parent).
 */
public final class Daemon implements AutoCloseable {
    public static final int DEFAULT_PORT = 7100;
    static final String USAGE = """
            usage: dist daemon [--bind tcp://HOST[:PORT]]
              Starts ranks of `dist mpirun --hosts` jobs on this host, for any mpirun holding the cluster
              secret (DIST_SECRET must be set, the same as mpirun's).
              --bind A     where to listen (default tcp://127.0.0.1:%d); give this host's address on
                           the network the other hosts reach it by, e.g. tcp://10.0.0.2
            Class paths are used as mpirun names them: the hosts share a file system (or the same paths).
            """.formatted(DEFAULT_PORT);
    private static final int MAX_RANKS = 256;
    private static final int MAX_LINES_PER_MESSAGE = 256;
    private static final int MAX_CHARS_PER_MESSAGE = 64 * 1024;
    private static final int WATCH_PERIOD_MILLIS = 1000;

    private final Endpoint endpoint;
    private final ClusterSecret secret;
    private final Map<Long, HostedJob> jobs = new ConcurrentHashMap<>();
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("dist-daemon-watch"));

    private Daemon(Endpoint endpoint, ClusterSecret secret) {
        this.endpoint = endpoint;
        this.secret = secret;
        endpoint.register(LaunchType.LAUNCH_RANK_VALUE, message -> {
            LaunchRank launch = message.decode(LaunchRank.parser());
            String refusal = refusal(launch);
            if (refusal != null) {
                throw new Handler.RefusedException(refusal);
            }
            // Starting a JVM forks: not on the connection's reader thread.
            return CompletableFuture.supplyAsync(() -> start(launch),
                    task -> DaemonThreads.start("dist-daemon-launch", task));
        });
        endpoint.registerImmediate(LaunchType.STOP_JOB_VALUE, message -> {
            HostedJob job = jobs.get(message.decode(StopJob.parser()).getJob());
            if (job != null) {
                job.stop("mpirun stopped the job");
            }
            return null;
        });
        watch.scheduleWithFixedDelay(this::stopOrphanedJobs, WATCH_PERIOD_MILLIS, WATCH_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** Serves on {@code bind} with {@code secret} until closed. */
    public static Daemon start(String bind, ClusterSecret secret) {
        return new Daemon(Endpoint.open(TransportConfig.loopback(secret).withBindAddress(bind)), secret);
    }

    public String address() {
        return endpoint.address();
    }

    /** Runs the command with command-line arguments; returns its exit code (it serves until killed). */
    public static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        String bind = "tcp://127.0.0.1:" + DEFAULT_PORT;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "--bind" -> {
                    if (++i >= args.length) {
                        return usageError(err, "--bind needs a value");
                    }
                    try {
                        bind = TcpAddress.normalize("--bind", args[i], DEFAULT_PORT);
                    } catch (IllegalArgumentException e) {
                        return usageError(err, e.getMessage());
                    }
                }
                default -> {
                    return usageError(err, "unknown option '" + args[i] + "'");
                }
            }
        }
        ClusterSecret secret = ClusterSecret.fromEnvironment();
        if (secret == null) {
            err.println("daemon: set " + ClusterSecret.ENV + " to the cluster secret that mpirun will use:"
                    + " only its holders may start ranks here");
            return 2;
        }
        Daemon daemon;
        try {
            daemon = start(bind, secret);
        } catch (TransportException e) {
            err.println("daemon: " + e.getMessage());
            return 1;
        }
        out.println("daemon listening at " + daemon.address() + (TcpAddress.isLoopback(daemon.address())
                ? " (loopback: only this host reaches it; other hosts need --bind tcp://ADDRESS, this host's address)"
                : ""));
        out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(daemon::close, "dist-daemon-shutdown"));
        new CountDownLatch(1).await();
        return 0;
    }

    private static int usageError(PrintStream err, String message) {
        err.println("daemon: " + message);
        err.print(USAGE);
        return 2;
    }

    /** Why a launch request cannot be served, or null: checked before anything runs. */
    static String refusal(LaunchRank launch) {
        if (launch.getSize() < 1 || launch.getSize() > MAX_RANKS || launch.getRank() >= launch.getSize()) {
            return "rank " + launch.getRank() + " of " + launch.getSize() + " is no rank of a job of 1 to " + MAX_RANKS;
        }
        if (launch.getMainClass().isEmpty() || launch.getClassPathCount() == 0) {
            return "a rank needs a main class and a class path";
        }
        for (String entry : launch.getClassPathList()) {
            try {
                if (!Path.of(entry).isAbsolute()) {
                    return "class path entry '" + entry + "' is not absolute";
                }
            } catch (InvalidPathException e) {
                return "class path entry '" + entry + "' is no path: " + e.getMessage();
            }
        }
        try {
            TcpAddress.normalize("mpirun's address", launch.getMpirun(), 0);
            TcpAddress.normalize("the coordinator's address", launch.getCoordinator(), 0);
            TcpAddress.normalize("this host's address", "tcp://" + launch.getHost(), 0);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return null;
    }

    private Launched start(LaunchRank launch) {
        ProcessBuilder builder = RankJvm.command(launch.getJavaOptionsList(), launch.getClassPathList(),
                launch.getMainClass(), launch.getArgsList());
        Path directory = Path.of(launch.getWorkingDirectory().isEmpty() ? "." : launch.getWorkingDirectory());
        if (Files.isDirectory(directory)) {
            builder.directory(directory.toFile());
        }
        Job.environment(builder.environment(), secret, launch.getRank(), launch.getSize(),
                launch.getCoordinator(), "tcp://" + launch.getHost() + ":0", ProcessHandle.current().pid(),
                launch.getStartTimeoutMillis() > 0 ? launch.getStartTimeoutMillis() : Job.DEFAULT_START_TIMEOUT_MILLIS);
        builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start rank " + launch.getRank() + ": " + e.getMessage(), e);
        }
        // Joined and left under the map's lock of the job: a rank that ends meanwhile cannot drop the job this one joins.
        jobs.compute(launch.getJob(), (id, known) -> (known == null ? new HostedJob(launch.getMpirun()) : known)
                .add(process));
        Log.info("daemon: rank " + launch.getRank() + " of job " + Long.toHexString(launch.getJob()) + " started, pid "
                + process.pid());
        Thread out = forward(launch, process.getInputStream(), false);
        Thread err = forward(launch, process.getErrorStream(), true);
        DaemonThreads.start("dist-daemon-rank-" + launch.getRank(), () -> reportExit(launch, process, out, err));
        return Launched.newBuilder().setPid(process.pid()).build();
    }

    /** Sends the lines a rank prints to its mpirun, as many as are ready in one message. */
    private Thread forward(LaunchRank launch, InputStream stream, boolean error) {
        return DaemonThreads.start("dist-daemon-output", () -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    RankOutput.Builder batch = RankOutput.newBuilder().setJob(launch.getJob()).setRank(launch.getRank())
                            .setError(error).addLines(line);
                    int chars = line.length();
                    while (lines.ready() && batch.getLinesCount() < MAX_LINES_PER_MESSAGE && chars < MAX_CHARS_PER_MESSAGE
                            && (line = lines.readLine()) != null) {
                        batch.addLines(line);
                        chars += line.length();
                    }
                    send(launch, LaunchType.RANK_OUTPUT_VALUE, batch.build());
                }
            } catch (IOException e) {
                // the rank is gone: nothing more to forward
            }
        });
    }

    private void reportExit(LaunchRank launch, Process process, Thread out, Thread err) {
        try {
            int status = process.waitFor();
            out.join();
            err.join(); // every line the rank printed leaves before its exit
            send(launch, LaunchType.RANK_EXIT_VALUE, RankExit.newBuilder().setJob(launch.getJob())
                    .setRank(launch.getRank()).setStatus(status).build());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            jobs.computeIfPresent(launch.getJob(), (id, known) -> known.remove(process) ? null : known);
        }
    }

    private void send(LaunchRank launch, int type, MessageLite message) {
        try {
            endpoint.send(launch.getMpirun(), type, message);
        } catch (TransportException e) {
            Log.warn("daemon: cannot reach mpirun at " + launch.getMpirun() + " for rank " + launch.getRank() + ": "
                    + e.getMessage());
        }
    }

    /** A job whose mpirun's port refuses connections has lost its mpirun: its ranks here stop. */
    private void stopOrphanedJobs() {
        for (HostedJob job : jobs.values()) {
            if (TcpAddress.refusesConnections(job.mpirun, WATCH_PERIOD_MILLIS)) {
                job.stop("its mpirun at " + job.mpirun + " is gone");
            }
        }
    }

    @Override
    public void close() {
        watch.shutdownNow();
        jobs.values().forEach(job -> job.stop("the daemon stops"));
        endpoint.close();
    }

    /** The ranks of one job on this host. */
    private static final class HostedJob {
        final String mpirun;
        private final List<Process> processes = new ArrayList<>();

        HostedJob(String mpirun) {
            this.mpirun = mpirun;
        }

        synchronized HostedJob add(Process process) {
            processes.add(process);
            return this;
        }

        /** Forgets an ended rank; true when it was the job's last here. */
        synchronized boolean remove(Process process) {
            processes.remove(process);
            return processes.isEmpty();
        }

        synchronized void stop(String why) {
            if (!processes.isEmpty()) {
                Log.warn("daemon: stopping " + processes.size() + " rank(s): " + why);
            }
            processes.forEach(RankJvm::destroy);
        }
    }
}
