package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.AccessSites.Kind;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class ProfileReportTest {
    @Test
    void ranksTheSitesOfRemoteAccessesFirstAndCountsEverySample() throws Exception {
        Profile profile = new Profile(0);
        int counterWrite = profile.sites.register(Kind.FIELD_WRITE, "app/Counter.count", "app/Counter", "add", "Counter.java", 7);
        int ownWrite = profile.sites.register(Kind.ARRAY_WRITE, "long[]", "app/Worker", "run", "Worker.java", 12);
        Object counter = new Object();
        ExecutorService first = Executors.newSingleThreadExecutor(task -> new Thread(task, "worker-1"));
        ExecutorService second = Executors.newSingleThreadExecutor(task -> new Thread(task, "worker-2"));
        long[][] own = {new long[4], new long[4]};
        try {
            // The two threads write the counter in turn, and each its own array.
            for (int i = 0; i < 1000; i++) {
                for (ExecutorService worker : new ExecutorService[] {first, second}) {
                    long[] mine = own[worker == first ? 0 : 1];
                    worker.submit(() -> {
                        profile.current().record(counter, counterWrite);
                        profile.current().record(mine, ownWrite);
                    }).get();
                }
            }
        } finally {
            first.shutdown();
            second.shutdown();
        }

        ProfileReport report = new ProfileReport(profile, "a test", 1000, 2, 0);
        String summary = report.summary();
        assertTrue(summary.contains("4,000 samples"), summary);
        assertTrue(summary.contains("50% of the sampled accesses would be remote"), summary);
        assertTrue(summary.contains("  1. write of app.Counter.count"), summary);
        assertTrue(summary.contains("50% of samples, 100% remote\n      at Counter.java:7 (app.Counter.add)"), summary);
        assertTrue(summary.contains("worker-N (2 threads) 100% (50% remote)"), summary);
        String json = report.json();
        assertTrue(json.contains("{\"kind\": \"field_write\", \"target\": \"app.Counter.count\", \"class\": \"app.Counter\","
                + " \"method\": \"add\", \"source\": \"Counter.java\", \"line\": 7, \"samples\": 2000, \"remoteSamples\": 1999}"), json);
        assertTrue(json.contains("\"kind\": \"array_write\", \"target\": \"long[]\""), json);
        assertTrue(json.contains("\"samples\": 2000, \"remoteSamples\": 0}"), json);
    }
}
