package dev.distvm.profile;

import static dev.distvm.report.RunReport.quote;

import dev.distvm.rewriter.AccessSites.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A profiling window's result, read by people (a short summary: the sites whose accesses would be
 * remote, with what a user could change) and by tools (JSON: every site and thread).
 * Counts are samples: a site's share of them is its share of the accesses.
 */
final class ProfileReport {
    private static final int TOP_SITES = 10;

    /** One site's totals over all threads. */
    record SiteTotal(SiteTable.Site site, long samples, long remote) {}

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
    private long samples;
    private long remote;

    ProfileReport(Profile profile, String target, long millis, int classes, int failures) {
        this.profile = profile;
        this.target = target;
        this.millis = millis;
        this.classes = classes;
        this.failures = failures;
        int siteCount = profile.sites.size();
        long[] siteSamples = new long[siteCount];
        long[] siteRemote = new long[siteCount];
        Map<String, ThreadTotal> byPattern = new HashMap<>();
        for (ThreadSamples thread : profile.threads()) {
            long threadSamples = 0;
            long threadRemote = 0;
            for (int number = 0; number < siteCount; number++) {
                siteSamples[number] += thread.samples(number);
                siteRemote[number] += thread.remote(number);
                threadSamples += thread.samples(number);
                threadRemote += thread.remote(number);
            }
            String pattern = thread.threadName.replaceAll("\\d+", "N");
            byPattern.merge(pattern, new ThreadTotal(pattern, 1, threadSamples, threadRemote), ThreadTotal::plus);
            samples += threadSamples;
            remote += threadRemote;
        }
        for (int number = 0; number < siteCount; number++) {
            if (siteSamples[number] > 0) {
                sites.add(new SiteTotal(profile.sites.site(number), siteSamples[number], siteRemote[number]));
            }
        }
        threads.addAll(byPattern.values());
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
        text.append(String.format(Locale.ROOT, "%d%% of the sampled accesses would be remote with each thread on a node of its"
                + " own: they touch an object another thread wrote since this one last touched it%n", percent(remote, samples)));
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
        SiteTotal top = sites.get(0);
        if (top.remote() > 0) {
            text.append("what to change first: ").append(advice(top.site().kind())).append('\n');
        }
        return text.toString();
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
                .append(", \"remoteSamples\": ").append(remote).append(", \"sites\": [");
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
        return json.append("]}").toString();
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
