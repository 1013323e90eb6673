package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.AccessSites.Kind;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class ProfileReportTest {
    @Test
    void ranksTheSitesOfRemoteAccessesFirstAndCountsEverySample() throws Exception {
        Profile profile = new Profile(0, null);
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
        // Placed on nodes 0 and 1 of every cluster (main is not in this test): the counter crosses.
        assertTrue(summary.contains("placement (main at the home, each other thread on the least-loaded node): 50% at 2 nodes,"
                + " 50% at 4 nodes, 50% at 8 nodes"), summary);
        String json = report.json();
        assertTrue(json.contains("\"advice\": \"threads read and write the top site's field in turn;"), json);
        assertTrue(json.contains("{\"kind\": \"field_write\", \"target\": \"app.Counter.count\", \"class\": \"app.Counter\","
                + " \"method\": \"add\", \"source\": \"Counter.java\", \"line\": 7, \"samples\": 2000, \"remoteSamples\": 1999,"
                + " \"remoteSamplesAt\": {\"2\": 1999, \"4\": 1999, \"8\": 1999}}"), json);
        assertTrue(json.contains("\"kind\": \"array_write\", \"target\": \"long[]\""), json);
        assertTrue(json.contains("\"samples\": 2000, \"remoteSamples\": 0, \"remoteSamplesAt\": {\"2\": 0, \"4\": 0, \"8\": 0}}"),
                json);
        // worker-1 (node 0) wrote the counter 1000 times, each read next on node 1; worker-2 999 times, read next on 0.
        assertTrue(json.contains("\"nodePairs\": {\"2\": [0, 1000, 999, 0], \"4\": [0, 1000, 0, 0, 999, 0"), json);
        assertTrue(json.contains("\"placedThreads\": 2, \"placement\": [{\"name\": \"worker-1\""), json);
    }
}
