package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ray tracer profiled at one node with {@code profile=FILE.html}: its output is the plain JVM's,
 * and the HTML report, opened in headless Chromium, draws every section with marks. The image array
 * written by every thread and the line queue's synchronized method are what a hand analysis of the
 * ray tracer names (perf/RESULTS.md); the sites chart must name both. The screenshot is kept in
 * target/ for people to look at.
 */
class ProfileReportIT {
    private static final Path SAMPLES = Path.of(System.getProperty("dist.samples"));
    private static final List<String> SECTIONS = List.of("what-if", "by-class", "by-site", "flame", "placement", "node-pairs");
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path temp;

    @Test
    void theRayTracersHtmlReportDrawsEachSectionInHeadlessChromium() throws Exception {
        Path report = temp.resolve("raytracer.html");
        List<String> program = List.of("samples.raytrace.RayTracer");
        List<String> expected = Jvm.plainStdout(SAMPLES.toString(), program);
        // More bursts than by default: the line queue is entered only 1,200 times in the run.
        try (Jvm home = Jvm.home("nodes=1,profile=" + report + ",profile-rate=10000", SAMPLES.toString(), program.get(0))) {
            assertEquals(0, home.awaitExit(Duration.ofSeconds(180)), home.output());
            assertEquals(expected, home.stdout(), home.output());
            assertTrue(home.stderr().contains("[dist] profile written to " + report), home.output());
        }

        String dom = HeadlessChromium.dom(report, temp);
        assertTrue(dom.contains("data-drawn=\"true\""), "the page's script did not run to its end:\n" + dom);
        for (String id : SECTIONS) {
            String section = section(dom, id);
            assertTrue(count(section, "class=\"mark\"") > 0, "no chart marks in section " + id + ":\n" + section);
            assertFalse(section.contains("class=\"empty\""), "section " + id + " says it has nothing to show:\n" + section);
        }
        assertTrue(dom.contains("<p id=\"advice\">What to change first: threads read what others wrote in the top site's"
                + " arrays;"), "the advice for the top site, an array's elements:\n" + dom);
        String sites = section(dom, "by-site");
        assertTrue(firstMarkTitle(sites).startsWith("array write of int[] at RayTracer.java:"), sites);
        assertTrue(firstMarkTitle(sites).contains("samples.raytrace.RayTracer.renderLine"), sites);
        assertTrue(sites.contains("synchronized method of samples.raytrace.RayTracer$LineQueue at"), sites);
        String placement = section(dom, "placement");
        assertTrue(placement.contains("raytrace-0 on node 1"), "at 4 nodes, main at the home, the first worker on node 1:\n"
                + placement);

        Path screenshot = Path.of("target", "profile-report-raytracer.png");
        Files.deleteIfExists(screenshot);
        HeadlessChromium.screenshot(report, screenshot, temp);
        try (InputStream png = Files.newInputStream(screenshot)) {
            assertArrayEquals(PNG_SIGNATURE, png.readNBytes(PNG_SIGNATURE.length), "not a PNG: " + screenshot);
        }
        assertTrue(Files.size(screenshot) > 20_000, "a screenshot of charts is larger than " + Files.size(screenshot) + " bytes");
    }

    private static String section(String dom, String id) {
        Matcher matcher = Pattern.compile("<section id=\"" + id + "\">(.*?)</section>", Pattern.DOTALL).matcher(dom);
        assertTrue(matcher.find(), "no section " + id + " in the page:\n" + dom);
        return matcher.group(1);
    }

    private static long count(String text, String part) {
        return Arrays.stream(text.split(Pattern.quote(part), -1)).count() - 1;
    }

    private static String firstMarkTitle(String section) {
        Matcher matcher = Pattern.compile("class=\"mark\"[^>]*><title>([^<]*)</title>").matcher(section);
        assertTrue(matcher.find(), section);
        return matcher.group(1);
    }
}
