package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker, which has only dist.jar, loads application classes and resources it has never seen
 * from the home and runs code from them; a class the home lacks fails there as it does locally.
 */
class RemoteClassLoadingIT {
    @TempDir
    Path application;

    /** The test application without itapp/Gone.class, so that one dependency is missing everywhere. */
    private String applicationClassPath() throws IOException {
        Path source = Jvm.TEST_CLASSES.resolve("itapp");
        Path target = Files.createDirectories(application.resolve("itapp"));
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : files.toList()) {
                if (!file.getFileName().toString().equals("Gone.class")) {
                    Files.copy(file, target.resolve(file.getFileName()));
                }
            }
        }
        return application.toString();
    }

    @Test
    void workerLoadsUnseenClassesAndResourcesFromTheHomeAndFailsLikeTheHomeOnMissingOnes() throws Exception {
        Path report = application.resolve("report.json");
        try (Jvm home = Jvm.home("nodes=2,report=" + report, applicationClassPath(), "itapp.InvokeEverywhere")) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(90)), home.output());
            List<String> out = home.stdout();
            assertEquals(10, out.size(), home.output());

            Pattern described = Pattern.compile(
                    "describe: pid=(\\d+) loader=(\\S+) sum=385 greeting=hello from the home's class path");
            Matcher atHome = described.matcher(out.get(1));
            Matcher atWorker = described.matcher(out.get(6));
            assertTrue(atHome.find(), home.output());
            assertTrue(atWorker.find(), home.output());
            assertEquals(String.valueOf(home.pid()), atHome.group(1), "node 1 is the home");
            assertNotEquals(atHome.group(1), atWorker.group(1), "the worker is another process");
            assertEquals("app", atHome.group(2));
            assertEquals("dist-remote", atWorker.group(2), "the worker defined the class from the home's bytes");

            for (int node = 0; node < 2; node++) {
                int base = node * 5;
                assertEquals("  echo: a+b", out.get(base + 2));
                assertEquals("  missing class: java.lang.ClassNotFoundException", out.get(base + 3));
                assertEquals("  missing dependency: java.lang.NoClassDefFoundError", out.get(base + 4));
            }

            String json = Files.readString(report);
            assertTrue(json.contains("\"role\": \"worker\""), json);
            assertTrue(json.matches("(?s).*\"role\": \"worker\".*\"classesLoadedFromHome\": [1-9].*"), json);
        }
    }
}
