package dev.distvm.mpi.launch;

import dev.distvm.common.DaemonThreads;
import dev.distvm.mpi.launch.proto.LaunchRank;
import dev.distvm.mpi.launch.proto.LaunchType;
import dev.distvm.mpi.launch.proto.Launched;
import dev.distvm.mpi.launch.proto.RankExit;
import dev.distvm.mpi.launch.proto.RankOutput;
import dev.distvm.mpi.launch.proto.StopJob;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.Handler;
import dev.distvm.transport.TcpAddress;
import dev.distvm.transport.TransportException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The ranks of one job that daemons on other hosts run: started through them, their output
 * printed here, their ends reported by them. A host whose daemon's port refuses connections has
 * lost its ranks (the daemon is gone, and its ranks stop with it): they end with {@link #LOST}.
 * A daemon that is only silent proves nothing (a loaded host), so nothing is declared then.
 */
final class RemoteRanks implements AutoCloseable {
    /** The exit status of a rank lost with its host's daemon (EX_UNAVAILABLE, as dist's lost nodes). */
    static final int LOST = 69;
    private static final Duration LAUNCH_TIMEOUT = Duration.ofSeconds(60);
    private static final int WATCH_PERIOD_MILLIS = 1000;

    private final Endpoint endpoint;
    private final long job;
    private final Map<Integer, RemoteRank> ranks = new ConcurrentHashMap<>();
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(
            DaemonThreads.named("mpirun-daemon-watch"));

    RemoteRanks(Endpoint endpoint, long job, PrintStream out, PrintStream err, boolean prefix) {
        this.endpoint = endpoint;
        this.job = job;
        // On the connection's reader thread, in the order the daemon sent them: a rank's exit after its last line.
        endpoint.registerImmediate(LaunchType.RANK_OUTPUT_VALUE, message -> {
            RankOutput output = message.decode(RankOutput.parser());
            RemoteRank rank = ofThisJob(output.getJob(), output.getRank());
            PrintStream to = output.getError() ? err : out;
            String label = prefix ? "[" + rank.rank + "] " : "";
            output.getLinesList().forEach(line -> to.println(label + line));
            return null;
        });
        endpoint.registerImmediate(LaunchType.RANK_EXIT_VALUE, message -> {
            RankExit exit = message.decode(RankExit.parser());
            ofThisJob(exit.getJob(), exit.getRank()).ended.complete(RankProcess.Ended.exited(exit.getStatus()));
            return null;
        });
        watch.scheduleWithFixedDelay(this::findLostHosts, WATCH_PERIOD_MILLIS, WATCH_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    private RemoteRank ofThisJob(long jobId, int rank) throws Handler.RefusedException {
        RemoteRank known = jobId == job ? ranks.get(rank) : null;
        if (known == null) {
            throw new Handler.RefusedException("no rank " + rank + " of job " + Long.toHexString(jobId) + " runs elsewhere");
        }
        return known;
    }

    /**
     * Asks {@code host}'s daemon to start the rank that {@code launch} describes.
     *
     * @throws IllegalStateException saying why the daemon did not start it
     */
    RankProcess launch(Hosts.Host host, LaunchRank launch) {
        RemoteRank rank = new RemoteRank(launch.getRank(), host);
        ranks.put(rank.rank, rank); // before the request: its first lines may overtake the answer
        try {
            rank.pid = endpoint.call(host.daemon(), LaunchType.LAUNCH_RANK_VALUE, launch, Launched.parser(),
                    LAUNCH_TIMEOUT).getPid();
        } catch (TransportException e) {
            ranks.remove(rank.rank);
            throw new IllegalStateException("cannot start rank " + rank.rank + " on " + host.name() + ": " + e.getMessage()
                    + " (is `dist daemon --bind " + host.daemon() + "` running there, with this DIST_SECRET?)", e);
        }
        return rank;
    }

    private void findLostHosts() {
        ranks.values().stream().filter(rank -> !rank.ended.isDone()).map(rank -> rank.host).distinct()
                .filter(host -> TcpAddress.refusesConnections(host.daemon(), WATCH_PERIOD_MILLIS))
                .forEach(host -> ranks.values().stream().filter(rank -> rank.host.equals(host))
                        .forEach(rank -> rank.ended.complete(new RankProcess.Ended(LOST, "was lost: the daemon on "
                                + host.name() + " is gone (" + host.daemon() + " refuses connections)"))));
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }

    private final class RemoteRank implements RankProcess {
        final int rank;
        final Hosts.Host host;
        final CompletableFuture<Ended> ended = new CompletableFuture<>();
        volatile long pid;

        RemoteRank(int rank, Hosts.Host host) {
            this.rank = rank;
            this.host = host;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public String where() {
            return "pid " + pid + " on " + host.name();
        }

        @Override
        public Ended awaitEnd(long millis) throws InterruptedException {
            try {
                return ended.get(millis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return null;
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }

        @Override
        public void stop() {
            if (!ended.isDone()) {
                try {
                    endpoint.send(host.daemon(), LaunchType.STOP_JOB_VALUE, StopJob.newBuilder().setJob(job).build());
                } catch (TransportException e) {
                    // its daemon is unreachable: the watch finds it gone, or mpirun gives up waiting
                }
            }
        }
    }
}
