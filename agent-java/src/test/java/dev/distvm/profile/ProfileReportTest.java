package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.AccessSites.Kind;
import org.junit.jupiter.api.Test;

class ProfileReportTest {
    @Test
    void ranksTheSitesOfSharedObjectsFirstAndCountsEverySample() throws Exception {
        Profile profile = new Profile(1);
        int counterWrite = profile.sites.register(Kind.FIELD_WRITE, "app/Counter.count", "app/Counter", "add", "Counter.java", 7);
        int ownWrite = profile.sites.register(Kind.ARRAY_WRITE, "long[]", "app/Worker", "run", "Worker.java", 12);
        Object counter = new Object();
        Runnable work = () -> {
            long[] own = new long[4];
            for (int i = 0; i < 1000; i++) {
                profile.current().access(counter, counterWrite);
                profile.current().access(own, ownWrite);
            }
        };
        Thread first = new Thread(work, "worker-1");
        first.start();
        first.join();
        Thread second = new Thread(work, "worker-2");
        second.start();
        second.join();

        ProfileReport report = new ProfileReport(profile, "a test", 1000, 2, 0);
        String summary = report.summary();
        assertTrue(summary.contains("4,000 samples"), summary);
        assertTrue(summary.contains("25% of the sampled accesses touched an object another thread touched too"), summary);
        assertTrue(summary.contains("  1. write of app.Counter.count"), summary);
        assertTrue(summary.contains("~2.0 k, 50% shared\n      at Counter.java:7 (app.Counter.add)"), summary);
        assertTrue(summary.contains("worker-N (2 threads) 100% (25% shared)"), summary);
        String json = report.json();
        assertTrue(json.contains("{\"kind\": \"field_write\", \"target\": \"app.Counter.count\", \"class\": \"app.Counter\","
                + " \"method\": \"add\", \"source\": \"Counter.java\", \"line\": 7, \"samples\": 2000, \"sharedSamples\": 1000}"), json);
        assertTrue(json.contains("\"kind\": \"array_write\", \"target\": \"long[]\""), json);
        assertTrue(json.contains("\"samples\": 2000, \"sharedSamples\": 0}"), json);
    }
}
