package dev.distvm.profile;

import static dev.distvm.report.RunReport.quote;

import dev.distvm.rewriter.AccessSites.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A profiling window's result, read by people (a short summary: the sites whose accesses would be
 * remote, with what a user could change; the HTML report draws the JSON) and by tools (JSON: every
 * site and thread, the what-if at 2, 4 and 8 nodes, where threads would run, stacks).
 * Counts are samples: a site's share of them is its share of the accesses.
 */
final class ProfileReport {
    private static final int TOP_SITES = 10;
    /** Threads listed one by one with their predicted nodes; thousands of short threads would be noise. */
    private static final int PLACED_THREADS_SHOWN = 400;
    /** The flame graph leaves out branches under this share of the stacks. */
    private static final int FLAME_RESOLUTION = 1000;
    /** Threads named per reason for keeping them home. */
    private static final int KEPT_HOME_NAMES = 10;

    /** One site's totals over all threads; {@code remoteAt[cluster]} as {@link PredictedPlacement#NODE_COUNTS}. */
    record SiteTotal(SiteTable.Site site, long samples, long remote, long[] remoteAt) {}

    /**
     * The totals of the threads of one name pattern (digits stand for any number, so that the
     * thousands of short threads of a pool or a loop count as one line).
     */
    record ThreadTotal(String name, int threads, long samples, long remote) {
        ThreadTotal plus(ThreadTotal other) {
            return new ThreadTotal(name, threads + other.threads, samples + other.samples, remote + other.remote);
        }
    }

    private final Profile profile;
    private final String target;
    private final long millis;
    private final int classes;
    private final int failures;
    private final List<SiteTotal> sites = new ArrayList<>();
    private final List<ThreadTotal> threads = new ArrayList<>();
    private final List<ThreadSamples> placed;
    private final long[] remoteAt = new long[PredictedPlacement.NODE_COUNTS.length];
    private final long[][] nodePairs = new long[PredictedPlacement.NODE_COUNTS.length][];
    private final StackTrie stacks = new StackTrie();
    /** Why threads would stay at the home on more nodes, with their names, most threads first. */
    private final List<Map.Entry<String, List<String>>> keptHome = new ArrayList<>();
    private long samples;
    private long remote;

    ProfileReport(Profile profile, String target, long millis, int classes, int failures) {
        this.profile = profile;
        this.target = target;
        this.millis = millis;
        this.classes = classes;
        this.failures = failures;
        int siteCount = profile.sites.size();
        long[][] siteCounts = new long[siteCount][ThreadSamples.COLUMNS];
        Map<String, ThreadTotal> byPattern = new HashMap<>();
        for (int cluster = 0; cluster < nodePairs.length; cluster++) {
            int size = PredictedPlacement.NODE_COUNTS[cluster];
            nodePairs[cluster] = new long[size * size];
        }
        placed = profile.threads();
        placed.sort(Comparator.comparingLong(thread -> thread.firstNanos));
        for (ThreadSamples thread : placed) {
            long threadSamples = 0;
            long threadRemote = 0;
            for (int number = 0; number < siteCount; number++) {
                for (int column = 0; column < ThreadSamples.COLUMNS; column++) {
                    siteCounts[number][column] += thread.count(number, column);
                }
                threadSamples += thread.count(number, 0);
                threadRemote += thread.count(number, 1);
            }
            for (int cluster = 0; cluster < nodePairs.length; cluster++) {
                long[] pairs = thread.nodePairs(cluster);
                for (int pair = 0; pair < pairs.length; pair++) {
                    nodePairs[cluster][pair] += pairs[pair];
                }
            }
            stacks.addAll(thread.stacks);
            String pattern = thread.threadName.replaceAll("\\d+", "N");
            byPattern.merge(pattern, new ThreadTotal(pattern, 1, threadSamples, threadRemote), ThreadTotal::plus);
            samples += threadSamples;
            remote += threadRemote;
        }
        for (int number = 0; number < siteCount; number++) {
            long[] counts = siteCounts[number];
            if (counts[0] > 0) {
                long[] at = Arrays.copyOfRange(counts, 2, ThreadSamples.COLUMNS);
                for (int cluster = 0; cluster < at.length; cluster++) {
                    remoteAt[cluster] += at[cluster];
                }
                sites.add(new SiteTotal(profile.sites.site(number), counts[0], counts[1], at));
            }
        }
        threads.addAll(byPattern.values());
        keptHome.addAll(profile.keptHome().entrySet());
        keptHome.sort(Comparator.comparingInt((Map.Entry<String, List<String>> kept) -> kept.getValue().size()).reversed()
                .thenComparing(Map.Entry::getKey));
        sites.sort(Comparator.comparingLong(SiteTotal::remote).thenComparingLong(SiteTotal::samples).reversed());
        threads.sort(Comparator.comparingLong(ThreadTotal::samples).reversed());
    }

    String summary() {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "profile of %s: %.1f s, %d classes rewritten%s, %s: %,d samples%n", target,
                millis / 1000.0, classes, failures == 0 ? "" : " (" + failures + " could not be and were left as they were)",
                profile.everyAccess() ? "every access counted"
                        : profile.rate + " bursts of " + AccessHooks.BURST + " accesses sampled a second", samples));
        if (samples == 0) {
            return text.append("no access of the application's code was sampled: the program may have been idle, or running"
                    + " only in methods entered before the attach (a method's running frame keeps the code it started with)\n")
                    .toString();
        }
        text.append(String.format(Locale.ROOT, "%s of the sampled accesses would be remote with each thread on a node of its"
                + " own: they touch an object another thread wrote since this one last touched it%n", share(remote, samples)));
        text.append("with dist's placement (main at the home, each other thread on the least-loaded node):");
        for (int cluster = 0; cluster < remoteAt.length; cluster++) {
            text.append(String.format(Locale.ROOT, "%s %s at %d nodes", cluster == 0 ? "" : ",",
                    share(remoteAt[cluster], samples), PredictedPlacement.NODE_COUNTS[cluster]));
        }
        text.append('\n');
        for (Map.Entry<String, List<String>> kept : keptHome) {
            List<String> names = kept.getValue();
            text.append(String.format(Locale.ROOT, "dist would keep %s at the home: %s%n", names.size() == 1
                    ? "thread " + names.get(0) : names.size() + " threads (" + names.get(0) + ", ...)", kept.getKey()));
        }
        text.append("sites by sampled remote accesses (the site's share of all samples, and how much of it would be remote):\n");
        int rank = 0;
        for (SiteTotal total : sites) {
            if (++rank > TOP_SITES) {
                break;
            }
            text.append(String.format(Locale.ROOT, "%3d. %-60s %s of samples, %d%% remote%n      at %s%n", rank,
                    total.site().what(), share(total.samples(), samples), percent(total.remote(), total.samples()),
                    total.site().where()));
        }
        text.append("threads by sampled accesses (digits in names stand for any number):");
        for (int i = 0; i < Math.min(threads.size(), TOP_SITES); i++) {
            ThreadTotal thread = threads.get(i);
            text.append(String.format(Locale.ROOT, "%s %s%s %d%% (%d%% remote)", i == 0 ? "" : ",", thread.name(),
                    thread.threads() == 1 ? "" : " (" + thread.threads() + " threads)",
                    percent(thread.samples(), samples), percent(thread.remote(), thread.samples())));
        }
        text.append(threads.size() > TOP_SITES ? ", and " + (threads.size() - TOP_SITES) + " more\n" : "\n");
        String advice = advice();
        if (advice != null) {
            text.append("what to change first: ").append(advice).append('\n');
        }
        return text.toString();
    }

    /** What a user could change first, for the site with the most remote samples; null when nothing would be remote. */
    private String advice() {
        return sites.isEmpty() || sites.get(0).remote() == 0 ? null : advice(sites.get(0).site().kind());
    }

    private static String advice(Kind kind) {
        return switch (kind) {
            case FIELD_WRITE, STATIC_WRITE, FIELD_READ, STATIC_READ ->
                    "threads read and write the top site's field in turn; a field each thread keeps for itself"
                    + " (combined once at the end) stays on the thread's node";
            case ARRAY_READ, ARRAY_WRITE ->
                    "threads read what others wrote in the top site's arrays; threads that each work on a part of"
                    + " their own (rows or a band) exchange only its edges";
            case MONITOR_ENTER, SYNCHRONIZED_METHOD ->
                    "threads contend for the top site's monitor; every hand-over between nodes is a network round trip:"
                    + " fewer, larger critical sections, or per-thread results combined at the end";
        };
    }

    String json() {
        StringBuilder json = new StringBuilder();
        json.append("{\"target\": ").append(quote(target)).append(", \"millis\": ").append(millis)
                .append(", \"burstsPerSecond\": ").append(profile.everyAccess() ? "null" : Integer.toString(profile.rate))
                .append(", \"burstLength\": ").append(AccessHooks.BURST)
                .append(", \"everyAccess\": ").append(profile.everyAccess()).append(", \"classesRewritten\": ").append(classes)
                .append(", \"classesLeftAlone\": ").append(failures).append(", \"samples\": ").append(samples)
                .append(", \"remoteSamples\": ").append(remote)
                .append(", \"remoteSamplesAt\": ").append(perClusterSize(remoteAt))
                .append(", \"advice\": ").append(advice() == null ? "null" : quote(advice())).append(", \"keptHome\": [");
        for (int i = 0; i < keptHome.size(); i++) {
            List<String> names = keptHome.get(i).getValue();
            json.append(i == 0 ? "" : ", ").append("{\"reason\": ").append(quote(keptHome.get(i).getKey()))
                    .append(", \"threads\": ").append(names.size()).append(", \"names\": [");
            for (int n = 0; n < Math.min(names.size(), KEPT_HOME_NAMES); n++) {
                json.append(n == 0 ? "" : ", ").append(quote(names.get(n)));
            }
            json.append("]}");
        }
        json.append("], \"sites\": [");
        for (int i = 0; i < sites.size(); i++) {
            SiteTotal total = sites.get(i);
            SiteTable.Site site = total.site();
            json.append(i == 0 ? "" : ", ").append("{\"kind\": ").append(quote(site.kind().name().toLowerCase(Locale.ROOT)))
                    .append(", \"target\": ").append(quote(site.target().replace('/', '.')))
                    .append(", \"class\": ").append(quote(site.className().replace('/', '.')))
                    .append(", \"method\": ").append(quote(site.method()))
                    .append(", \"source\": ").append(site.sourceFile() == null ? "null" : quote(site.sourceFile()))
                    .append(", \"line\": ").append(site.line())
                    .append(", \"samples\": ").append(total.samples()).append(", \"remoteSamples\": ").append(total.remote())
                    .append(", \"remoteSamplesAt\": ").append(perClusterSize(total.remoteAt()))
                    .append('}');
        }
        json.append("], \"threads\": [");
        for (int i = 0; i < threads.size(); i++) {
            ThreadTotal thread = threads.get(i);
            json.append(i == 0 ? "" : ", ").append("{\"name\": ").append(quote(thread.name()))
                    .append(", \"threads\": ").append(thread.threads())
                    .append(", \"samples\": ").append(thread.samples()).append(", \"remoteSamples\": ").append(thread.remote())
                    .append('}');
        }
        json.append("], \"nodePairs\": {");
        for (int cluster = 0; cluster < nodePairs.length; cluster++) {
            json.append(cluster == 0 ? "" : ", ").append('"').append(PredictedPlacement.NODE_COUNTS[cluster]).append("\": ")
                    .append(Arrays.toString(nodePairs[cluster]));
        }
        json.append("}, \"placedThreads\": ").append(placed.size()).append(", \"placement\": [");
        for (int i = 0; i < Math.min(placed.size(), PLACED_THREADS_SHOWN); i++) {
            ThreadSamples thread = placed.get(i);
            json.append(i == 0 ? "" : ", ").append("{\"name\": ").append(quote(thread.threadName))
                    .append(", \"fromMillis\": ").append(millisOf(thread.firstNanos))
                    .append(", \"toMillis\": ").append(millisOf(thread.lastNanos())).append(", \"nodes\": [");
            for (int cluster = 0; cluster < PredictedPlacement.NODE_COUNTS.length; cluster++) {
                json.append(cluster == 0 ? "" : ", ").append(PredictedPlacement.node(thread.nodes, cluster));
            }
            json.append("]}");
        }
        json.append("], \"stacks\": ");
        stacks.appendJson("all", Math.max(1, stacks.count() / FLAME_RESOLUTION), json);
        return json.append('}').toString();
    }

    private long millisOf(long nanos) {
        return (nanos - profile.startNanos) / 1_000_000;
    }

    /** {@code {"2": a, "4": b, "8": c}}: a figure per cluster size of the what-if. */
    private static String perClusterSize(long[] figures) {
        StringBuilder json = new StringBuilder("{");
        for (int cluster = 0; cluster < figures.length; cluster++) {
            json.append(cluster == 0 ? "" : ", ").append('"').append(PredictedPlacement.NODE_COUNTS[cluster]).append("\": ")
                    .append(figures[cluster]);
        }
        return json.append('}').toString();
    }

    /** A percentage with one decimal below 10 %, so that small sites do not all read 0 %. */
    private static String share(long part, long whole) {
        double percent = 100.0 * part / whole;
        return String.format(Locale.ROOT, percent < 10 ? "%.1f%%" : "%.0f%%", percent);
    }

    private static long percent(long part, long whole) {
        return whole == 0 ? 0 : Math.round(100.0 * part / whole);
    }
}
