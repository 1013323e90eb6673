package dev.distvm.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium, headless, on a local page: the DOM its scripts leave, and a screenshot. Each
 * call is one browser process with a profile directory of its own, stopped with its children even
 * when it hangs. {@code ./dist test} installs Chromium (as root on Debian).
 */
final class HeadlessChromium {
    private static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_SECONDS = 120;

    private HeadlessChromium() {}

    /** The page's DOM once its scripts ran (Chromium's {@code --dump-dom}). */
    static String dom(Path page, Path scratch) throws IOException, InterruptedException {
        Path out = scratch.resolve("dom.html");
        run(scratch, out, List.of("--dump-dom", page.toUri().toString()));
        return Files.readString(out);
    }

    static void screenshot(Path page, Path png, Path scratch) throws IOException, InterruptedException {
        run(scratch, scratch.resolve("screenshot.log"), List.of("--hide-scrollbars", "--window-size=1100,2400",
                "--screenshot=" + png.toAbsolutePath(), page.toUri().toString()));
    }

    private static void run(Path scratch, Path stdout, List<String> arguments) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " is missing: the HTML report is tested in Debian's Chromium; ./dist test"
                    + " installs it when run as root (apt-get install chromium)");
        }
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--user-data-dir=" + Files.createTempDirectory(scratch, "chromium")));
        command.addAll(arguments);
        Path stderr = scratch.resolve("chromium-stderr.log");
        Process browser = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            if (!browser.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("Chromium did not finish within " + TIMEOUT_SECONDS + " s: " + Files.readString(stderr));
            }
            if (browser.exitValue() != 0) {
                throw new AssertionError("Chromium exited with " + browser.exitValue() + ": " + Files.readString(stderr));
            }
        } finally {
            browser.descendants().forEach(ProcessHandle::destroyForcibly);
            browser.destroyForcibly();
        }
    }
}
