package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks on the JSON run report that more than one test needs. */
final class RunReports {
    private static final Pattern NODE_THREADS = Pattern.compile("\"role\": \"(home|worker)\",\\s*\"threads\": \\[([^\\]]*)\\]");

    private static final Pattern OBJECT_SPACE = Pattern.compile(
            "\"role\": \"(home|worker)\".*?\"objectSpace\": \\{([^}]*)\\}", Pattern.DOTALL);

    private RunReports() {}

    /** A counter of the object space (e.g. "objectsHomed") as each node reported it, home first. */
    static List<Long> objectSpaceCounter(String json, String name) {
        List<Long> values = new ArrayList<>();
        Matcher node = OBJECT_SPACE.matcher(json);
        while (node.find()) {
            Matcher counter = Pattern.compile("\"" + Pattern.quote(name) + "\": (\\d+)").matcher(node.group(2));
            assertTrue(counter.find(), "no " + name + " in " + node.group());
            values.add(Long.parseLong(counter.group(1)));
        }
        return values;
    }

    /**
     * Hand-overs of the monitors of {@code className}'s objects, summed over the nodes: [within
     * nodes, across nodes, calls run at the home instead].
     */
    static long[] monitorHandOvers(String json, String className) {
        Matcher m = Pattern.compile("\\{\"class\": \"" + Pattern.quote(className)
                + "\", \"withinNode\": (\\d+), \"acrossNodes\": (\\d+), \"callsAtHome\": (\\d+)\\}").matcher(json);
        long[] sums = new long[3];
        while (m.find()) {
            for (int i = 0; i < sums.length; i++) {
                sums[i] += Long.parseLong(m.group(i + 1));
            }
        }
        return sums;
    }

    /** Fetches of arrays of {@code className} sent on demand (e.g. "int[]"), summed over the nodes (home: answered). */
    static long onDemandFetches(String json, String className) {
        Matcher m = Pattern.compile("\\{\"class\": \"" + Pattern.quote(className)
                + "\", \"arrays\": \\d+, \"fetches\": (\\d+),").matcher(json);
        long sum = 0;
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }

    /** The home placed {@code thread} on a worker (a placement "name: node N", not "(home)" or "kept home"). */
    static void assertPlacedOnAWorker(String json, String thread) {
        assertTrue(Pattern.compile("\"" + Pattern.quote(thread) + ": node \\d+\"").matcher(json).find(),
                thread + " was not placed on a worker: " + json);
    }

    /**
     * Every worker's report lists at least one application thread placed there, and the home's its
     * main: placement counts main as the home's load, so with as many threads as workers the home
     * may run nothing but main.
     */
    static void assertThreadsRanOnEveryNode(String json, int nodes) {
        Matcher m = NODE_THREADS.matcher(json);
        int seen = 0;
        while (m.find()) {
            seen++;
            String threads = m.group(2);
            String kind = m.group(1).equals("home") ? "\"kind\": \"main\"" : "\"kind\": \"placed\"";
            assertTrue(threads.contains(kind), "no application thread ran on a " + m.group(1) + " node: " + json);
        }
        assertEquals(nodes, seen, json);
    }

    /**
     * Every node ran exactly {@code each} application threads: at the home its main and the
     * threads started there, on a worker the threads placed there.
     */
    static void assertApplicationThreadsPerNode(String json, int nodes, int each) {
        Matcher m = NODE_THREADS.matcher(json);
        int seen = 0;
        while (m.find()) {
            seen++;
            String threads = m.group(2);
            int ran = m.group(1).equals("home")
                    ? count(threads, "\"kind\": \"main\"") + count(threads, "\"kind\": \"started\"")
                    : count(threads, "\"kind\": \"placed\"");
            assertEquals(each, ran, "application threads on a " + m.group(1) + " node: " + json);
        }
        assertEquals(nodes, seen, json);
    }

    private static int count(String text, String what) {
        int count = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + what.length())) {
            count++;
        }
        return count;
    }
}
