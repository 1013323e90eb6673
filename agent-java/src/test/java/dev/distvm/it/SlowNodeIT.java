package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import itapp.SteadyWork;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A slow node is not a dead one: a worker stopped for 10 s, and a whole cluster starved by a CPU
 * hog, finish their run with the right output under the default failure detection. The hog runs
 * are repeated {@code -Ddist.hogRuns=N} times (3 by default; README gives the longer command).
 */
class SlowNodeIT {
    private static final int SECONDS = 10;
    /** Only against a hang: a run of SECONDS that may be starved or stopped for a while. */
    private static final Duration RUN_LIMIT = Duration.ofMinutes(5);

    @Test
    void aWorkerStoppedForTenSecondsIsNotDeclaredDeadAndTheRunIsRight() throws Exception {
        try (Jvm home = Jvm.home("nodes=3", Jvm.TEST_CLASSES.toString(), "itapp.SteadyWork", String.valueOf(SECONDS))) {
            home.awaitLine("cluster of 3 nodes ready", Duration.ofSeconds(120));
            home.awaitLine("steady started", Duration.ofSeconds(60));
            long stopped = home.announcedWorkers().get(0);

            signal("STOP", stopped);
            try {
                Thread.sleep(10_000);
            } finally {
                signal("CONT", stopped);
            }

            assertRightRun(home);
        }
    }

    @Test
    void aThreeNodeRunUnderACpuHogFinishesRightEveryTime() throws Exception {
        int runs = Integer.getInteger("dist.hogRuns", 3);
        try (CpuHog hog = CpuHog.twoPerCore()) {
            for (int run = 1; run <= runs; run++) {
                try (Jvm home = Jvm.home("nodes=3", Jvm.TEST_CLASSES.toString(), "itapp.SteadyWork",
                        String.valueOf(SECONDS))) {
                    assertRightRun(home);
                }
            }
        }
    }

    /** Exit 0, the right total from threads on all three nodes, and nobody declared dead or expelled. */
    static void assertRightRun(Jvm home) throws InterruptedException {
        assertEquals(0, home.awaitExit(RUN_LIMIT), home.output());
        String expected = "total=" + SteadyWork.expectedTotal(SECONDS) + " processes=3";
        assertEquals(List.of(expected), home.stdout().stream().filter(l -> l.startsWith("total=")).toList(),
                home.output());
        assertFalse(home.output().contains("declared dead"), home.output());
        assertFalse(home.output().contains("expelled"), home.output());
    }

    static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + pid);
    }
}
