package dev.distvm.mpi.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.mpi.launch.proto.LaunchRank;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DaemonTest {
    private static final LaunchRank GOOD = LaunchRank.newBuilder().setJob(7).setRank(1).setSize(4)
            .setMpirun("tcp://10.0.0.1:41000").setCoordinator("tcp://10.0.0.1:41000").setHost("10.0.0.2")
            .addClassPath("/srv/app").setMainClass("app.Main").build();

    @Test
    void aLaunchIsCheckedBeforeAnythingRuns() {
        assertNull(Daemon.refusal(GOOD));
        assertRefused("rank 4 of 4 is no rank", GOOD.toBuilder().setRank(4).build());
        assertRefused("rank 0 of 0 is no rank", GOOD.toBuilder().setRank(0).setSize(0).build());
        assertRefused("rank 1 of 257 is no rank", GOOD.toBuilder().setSize(257).build());
        assertRefused("needs a main class", GOOD.toBuilder().clearMainClass().build());
        assertRefused("class path entry 'app' is not absolute", GOOD.toBuilder().clearClassPath().addClassPath("app").build());
        assertRefused("is no path", GOOD.toBuilder().clearClassPath().addClassPath("/a\0b").build());
        assertRefused("mpirun's address must look like tcp://HOST[:PORT]", GOOD.toBuilder().setMpirun("10.0.0.1").build());
        assertRefused("this host's address must look like", GOOD.toBuilder().setHost("a b").build());
    }

    @Test
    void withoutTheClusterSecretOrWithABadOptionItRefusesToStartSayingWhy() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(2, Daemon.run(new String[] {"--bind"}, new PrintStream(out), new PrintStream(err, true,
                StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--bind needs a value"), err.toString());
        assertEquals(2, Daemon.run(new String[] {"--port", "1"}, new PrintStream(out), new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown option '--port'"), err.toString());
        assertEquals(0, Daemon.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err)));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: dist daemon"), out.toString());
    }

    private static void assertRefused(String expected, LaunchRank launch) {
        String refusal = Daemon.refusal(launch);
        assertTrue(refusal != null && refusal.contains(expected), String.valueOf(refusal));
    }
}
