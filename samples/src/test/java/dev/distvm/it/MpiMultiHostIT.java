package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.ClusterSecret;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * MPI ranks on four hosts, each a network namespace with its own address on a bridge, started with
 * {@code ./dist} commands as a user would: a daemon on hosts 1 to 3, mpirun on host 0 with
 * {@code --hosts} naming all four (host 0's rank is mpirun's child). Ranks reach each other and
 * mpirun by those addresses, never loopback. Needs root and {@code ip netns}; without them it fails
 * saying so.
 */
class MpiMultiHostIT {
    private static final Path SAMPLES = DistOnHosts.SAMPLES;
    private static final Duration DEADLINE = Duration.ofSeconds(180);
    private static final int HOSTS = 4;

    private final ClusterSecret secret = ClusterSecret.random();
    private final List<Jvm> daemons = new ArrayList<>();
    private DistOnHosts hosts;

    @BeforeEach
    void startADaemonOnEveryHostButTheFirst() throws Exception {
        hosts = new DistOnHosts("distmpi", HOSTS);
        for (int host = 1; host < HOSTS; host++) {
            Jvm daemon = dist(host, secret, "daemon", "--bind", "tcp://" + hosts.address(host));
            daemons.add(daemon);
        }
        for (int host = 1; host < HOSTS; host++) {
            daemons.get(host - 1).awaitLine("daemon listening at tcp://" + hosts.address(host) + ":7100", DEADLINE);
        }
    }

    @AfterEach
    void stopEverythingThenRemoveTheHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void jacobiOnFourHostsPrintsWhatItPrintsOnOne() throws Exception {
        List<String> oneHost = mpirun(0, secret, 4, null, "samples.mpi.Jacobi", "128");
        List<String> fourHosts = mpirun(0, secret, 4, allHosts(), "samples.mpi.Jacobi", "128");
        assertEquals(oneHost, fourHosts);
        assertEquals(1, fourHosts.size(), fourHosts.toString());
        for (int host = 1; host < HOSTS; host++) {
            daemons.get(host - 1).awaitLine("daemon: rank " + host + " of job \\w+ started", Duration.ofSeconds(5));
        }
    }

    @Test
    void pingPongBetweenTwoHostsBouncesEverySizeItBouncesOnOne() throws Exception {
        String twoHosts = hosts.address(0) + "," + hosts.address(2);
        assertEquals(sizes(mpirun(0, secret, 2, null, "samples.mpi.PingPong", "8")),
                sizes(mpirun(0, secret, 2, twoHosts, "samples.mpi.PingPong", "8")));
        daemons.get(1).awaitLine("daemon: rank 1 of job \\w+ started", Duration.ofSeconds(5));
    }

    @Test
    void killingEveryProcessOfOneHostEndsTheJobNamingItsRank() throws Exception {
        Jvm job = start(0, secret, List.of("mpirun", "-np", "4", "--hosts", allHosts(), "--", "-cp", SAMPLES.toString(),
                "samples.mpi.Jacobi", "4096", "1e-12"));
        daemons.get(1).awaitLine("daemon: rank 2 of job \\w+ started", DEADLINE);
        Thread.sleep(2_000); // into the iterations: ranks wait on each other's messages
        for (long pid : hosts.hosts().pids(2)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        int status = job.awaitExit(DEADLINE);
        assertNotEquals(0, status, job.output());
        assertTrue(Pattern.compile("mpirun: rank 2 \\(pid \\d+ on " + Pattern.quote(hosts.address(2)) + "\\) was lost")
                .matcher(job.output()).find(), job.output());
        assertTrue(daemons.get(0).process().isAlive() && daemons.get(2).process().isAlive(), "the other daemons serve on");
    }

    @Test
    void aDaemonRefusesAnMpirunWithoutItsSecret() throws Exception {
        Jvm stranger = start(0, ClusterSecret.random(), List.of("mpirun", "-np", "2", "--hosts",
                hosts.address(0) + "," + hosts.address(1), "--", "-cp", SAMPLES.toString(), "samples.mpi.Jacobi", "64"));
        assertEquals(1, stranger.awaitExit(DEADLINE), stranger.output());
        assertTrue(stranger.output().contains("mpirun: cannot start rank 1 on " + hosts.address(1)), stranger.output());
        assertTrue(stranger.output().contains("DIST_SECRET"), stranger.output());
    }

    private String allHosts() {
        List<String> all = new ArrayList<>();
        for (int host = 0; host < HOSTS; host++) {
            all.add(hosts.address(host));
        }
        return String.join(",", all);
    }

    /** The first column of PingPong's table: the sizes it bounced (the times differ from run to run). */
    private static List<String> sizes(List<String> table) {
        return table.stream().map(line -> line.strip().split("\\s+")[0]).toList();
    }

    /** What {@code mpirun -np N [--hosts H] -- -cp samples main args} prints on host {@code host}; it must exit 0. */
    private List<String> mpirun(int host, ClusterSecret clusterSecret, int ranks, String hostList, String... program)
            throws Exception {
        List<String> arguments = new ArrayList<>(List.of("mpirun", "-np", String.valueOf(ranks)));
        if (hostList != null) {
            arguments.addAll(List.of("--hosts", hostList));
        }
        arguments.addAll(List.of("--", "-cp", SAMPLES.toString()));
        arguments.addAll(List.of(program));
        Jvm run = start(host, clusterSecret, arguments);
        assertEquals(0, run.awaitExit(DEADLINE), run.output());
        return run.stdout();
    }

    private Jvm dist(int host, ClusterSecret clusterSecret, String... arguments) throws Exception {
        return start(host, clusterSecret, List.of(arguments));
    }

    private Jvm start(int host, ClusterSecret clusterSecret, List<String> arguments) throws Exception {
        return hosts.dist(host, clusterSecret.value(), arguments);
    }
}
