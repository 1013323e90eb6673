package dev.distvm.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsTest {
    /** An address no interface of a test machine has (TEST-NET-3). */
    private static final String ELSEWHERE = "203.0.113.7";

    @TempDir
    Path temp;

    @Test
    void ranksGoRoundRobinOverAListAndThisMachineRunsItsOwn() {
        Hosts hosts = Hosts.ofList("localhost, " + ELSEWHERE + ":7200,127.0.0.1");
        List<Hosts.Host> placed = hosts.place(5);
        assertEquals(List.of("localhost", ELSEWHERE, "127.0.0.1", "localhost", ELSEWHERE),
                placed.stream().map(Hosts.Host::name).toList());
        assertTrue(placed.get(0).local());
        assertFalse(placed.get(1).local());
        assertEquals("tcp://" + ELSEWHERE + ":7200", placed.get(1).daemon());
        assertEquals(ELSEWHERE, hosts.firstRemote().name());
        assertEquals("tcp://localhost:" + Daemon.DEFAULT_PORT, placed.get(0).daemon());
    }

    @Test
    void aHostFileFillsEachHostsSlotsInTurnAndSkipsCommentsAndBlankLines() throws Exception {
        Path file = temp.resolve("hosts");
        Files.writeString(file, """
                # the lab
                localhost slots=2

                %s:7300 slots=3   # the big one
                """.formatted(ELSEWHERE));
        List<String> placed = Hosts.ofFile(file).place(7).stream().map(h -> h.name() + ":" + h.port()).toList();
        String here = "localhost:" + Daemon.DEFAULT_PORT, there = ELSEWHERE + ":7300";
        assertEquals(List.of(here, here, there, there, there, here, here), placed);
    }

    @Test
    void badEntriesAreRefusedSayingWhereAndWhy() throws Exception {
        assertRefused("--hosts: 'a b' is not HOST[:PORT] [slots=N]", () -> Hosts.ofList("a b"));
        assertRefused("needs a port from 1 to 65535", () -> Hosts.ofList("localhost:70000"));
        assertRefused("unknown host 'no-such-host.invalid'", () -> Hosts.ofList("no-such-host.invalid"));
        Path file = temp.resolve("hosts");
        Files.writeString(file, "localhost\nlocalhost slots=0\n");
        assertRefused(file + " line 2: 'localhost slots=0' needs a port from 1 to 65535 and at least one slot",
                () -> Hosts.ofFile(file));
        Files.writeString(file, "# nobody\n\n");
        assertRefused("names no host", () -> Hosts.ofFile(file));
        assertRefused("cannot read host file " + temp.resolve("missing"), () -> Hosts.ofFile(temp.resolve("missing")));
    }

    @Test
    void mpirunTakesOneHostListForRanksThatAreJvmsAndAnAddressOtherHostsReach() throws Exception {
        MpiRun.Launch launch = MpiRun.Launch.parse(new String[] {"-np", "2", "--hosts", "localhost," + ELSEWHERE,
                "--bind", "tcp://10.0.0.5", "--", "-cp", "app", "Main"});
        assertEquals(ELSEWHERE, launch.hosts().firstRemote().name());
        assertEquals(MpiRun.Launch.parse(new String[] {"-np", "2", "--", "-cp", "app", "Main"}).hosts(), Hosts.LOCAL);
        assertRefused("is loopback, but ranks run on " + ELSEWHERE, () -> MpiRun.Launch.parse(new String[] {"-np", "2",
                "--hosts", ELSEWHERE, "--bind", "tcp://127.0.0.1", "--", "-cp", "app", "Main"}));
        assertRefused("give the hosts once", () -> MpiRun.Launch.parse(new String[] {"-np", "2", "--hosts", "localhost",
                "--hosts", "localhost", "--", "-cp", "app", "Main"}));
        assertRefused("--hosts and --hostfile are for ranks that are JVMs", () -> MpiRun.Launch.parse(new String[] {
                "-np", "2", "--threads", "--hosts", "localhost", "--", "-cp", "app", "Main"}));
        assertRefused("--start-timeout must be from 1000", () -> MpiRun.Launch.parse(new String[] {"-np", "2",
                "--start-timeout", "5", "--", "-cp", "app", "Main"}));
        assertEquals(300_000, MpiRun.Launch.parse(new String[] {"-np", "2", "--start-timeout", "300000", "--", "-cp",
                "app", "Main"}).startTimeoutMillis());
    }

    private interface Parse {
        Object run() throws Exception;
    }

    private static void assertRefused(String expected, Parse parse) {
        var e = assertThrows(IllegalArgumentException.class, parse::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
