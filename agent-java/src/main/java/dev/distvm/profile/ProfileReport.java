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
 * A profiling window's result, read by people (a short summary: the sites whose objects other
 * threads touch too, with what a user could change) and by tools (JSON: every site and thread).
 * Counts are samples; estimates of accesses are samples times the sampling period.
 */
final class ProfileReport {
    private static final int TOP_SITES = 10;

    /** One site's totals over all threads. */
    record SiteTotal(int number, SiteTable.Site site, long samples, long shared) {}

    /**
     * The totals of the threads of one name pattern (digits stand for any number, so that the
     * thousands of short threads of a pool or a loop count as one line).
     */
    record ThreadTotal(String name, int threads, long samples, long shared) {
        ThreadTotal plus(ThreadTotal other) {
            return new ThreadTotal(name, threads + other.threads, samples + other.samples, shared + other.shared);
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
    private long shared;

    ProfileReport(Profile profile, String target, long millis, int classes, int failures) {
        this.profile = profile;
        this.target = target;
        this.millis = millis;
        this.classes = classes;
        this.failures = failures;
        List<ThreadSamples> all = profile.threads();
        Map<String, ThreadTotal> byPattern = new HashMap<>();
        for (int number = 0; number < profile.sites.size(); number++) {
            long siteSamples = 0;
            long siteShared = 0;
            for (ThreadSamples thread : all) {
                siteSamples += thread.samples(number);
                siteShared += thread.shared(number);
            }
            if (siteSamples > 0) {
                sites.add(new SiteTotal(number, profile.sites.site(number), siteSamples, siteShared));
            }
            samples += siteSamples;
            shared += siteShared;
        }
        for (ThreadSamples thread : all) {
            long threadSamples = 0;
            long threadShared = 0;
            for (int number = 0; number < profile.sites.size(); number++) {
                threadSamples += thread.samples(number);
                threadShared += thread.shared(number);
            }
            String pattern = thread.threadName.replaceAll("\\d+", "N");
            byPattern.merge(pattern, new ThreadTotal(pattern, 1, threadSamples, threadShared), ThreadTotal::plus);
        }
        threads.addAll(byPattern.values());
        sites.sort(Comparator.comparingLong(SiteTotal::shared).thenComparingLong(SiteTotal::samples).reversed());
        threads.sort(Comparator.comparingLong(ThreadTotal::samples).reversed());
    }

    String summary() {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "dist profile of %s: %.1f s, %d classes rewritten%s, about 1 in %d accesses sampled:"
                        + " %,d samples%n", target, millis / 1000.0, classes,
                failures == 0 ? "" : " (" + failures + " could not be and were left as they were)", profile.period, samples));
        if (samples == 0) {
            return text.append("no access of the application's code was sampled: the program may have been idle, or running"
                    + " only in methods entered before the attach (a method's running frame keeps the code it started with)\n")
                    .toString();
        }
        text.append(String.format(Locale.ROOT, "%d%% of the sampled accesses touched an object another thread touched too:"
                + " with the threads on several nodes, these are the accesses that may cross the network%n", percent(shared, samples)));
        text.append("sites by accesses to shared objects (estimated accesses, share of them shared):\n");
        int rank = 0;
        for (SiteTotal total : sites) {
            if (++rank > TOP_SITES) {
                break;
            }
            text.append(String.format(Locale.ROOT, "%3d. %-60s ~%s, %d%% shared%n      at %s%n", rank, total.site().what(),
                    estimate(total.samples()), percent(total.shared(), total.samples()), total.site().where()));
        }
        text.append("threads by sampled accesses (digits in names stand for any number):");
        for (int i = 0; i < Math.min(threads.size(), TOP_SITES); i++) {
            ThreadTotal thread = threads.get(i);
            text.append(String.format(Locale.ROOT, "%s %s%s %d%% (%d%% shared)", i == 0 ? "" : ",", thread.name(),
                    thread.threads() == 1 ? "" : " (" + thread.threads() + " threads)",
                    percent(thread.samples(), samples), percent(thread.shared(), thread.samples())));
        }
        text.append(threads.size() > TOP_SITES ? ", and " + (threads.size() - TOP_SITES) + " more\n" : "\n");
        SiteTotal top = sites.get(0);
        if (top.shared() > 0) {
            text.append("what to change first: ").append(advice(top.site().kind())).append('\n');
        }
        return text.toString();
    }

    private static String advice(Kind kind) {
        return switch (kind) {
            case FIELD_WRITE, STATIC_WRITE, FIELD_READ, STATIC_READ ->
                    "the top site's field is used by several threads; a field each thread keeps for itself"
                    + " (combined once at the end) stays on the thread's node";
            case ARRAY_READ, ARRAY_WRITE ->
                    "several threads touch the top site's arrays; threads that each work on a part of their own"
                    + " (rows or a band) touch shared data only at the edges";
            case MONITOR_ENTER, SYNCHRONIZED_METHOD ->
                    "threads contend for the top site's monitor; every hand-over between nodes is a network round trip:"
                    + " fewer, larger critical sections, or per-thread results combined at the end";
        };
    }

    String json() {
        StringBuilder json = new StringBuilder();
        json.append("{\"target\": ").append(quote(target)).append(", \"millis\": ").append(millis)
                .append(", \"samplePeriod\": ").append(profile.period).append(", \"classesRewritten\": ").append(classes)
                .append(", \"classesLeftAlone\": ").append(failures).append(", \"samples\": ").append(samples)
                .append(", \"sharedSamples\": ").append(shared).append(", \"sites\": [");
        for (int i = 0; i < sites.size(); i++) {
            SiteTotal total = sites.get(i);
            SiteTable.Site site = total.site();
            json.append(i == 0 ? "" : ", ").append("{\"kind\": ").append(quote(site.kind().name().toLowerCase(Locale.ROOT)))
                    .append(", \"target\": ").append(quote(site.target().replace('/', '.')))
                    .append(", \"class\": ").append(quote(site.className().replace('/', '.')))
                    .append(", \"method\": ").append(quote(site.method()))
                    .append(", \"source\": ").append(site.sourceFile() == null ? "null" : quote(site.sourceFile()))
                    .append(", \"line\": ").append(site.line())
                    .append(", \"samples\": ").append(total.samples()).append(", \"sharedSamples\": ").append(total.shared())
                    .append('}');
        }
        json.append("], \"threads\": [");
        for (int i = 0; i < threads.size(); i++) {
            ThreadTotal thread = threads.get(i);
            json.append(i == 0 ? "" : ", ").append("{\"name\": ").append(quote(thread.name()))
                    .append(", \"threads\": ").append(thread.threads())
                    .append(", \"samples\": ").append(thread.samples()).append(", \"sharedSamples\": ").append(thread.shared())
                    .append('}');
        }
        return json.append("]}").toString();
    }

    private String estimate(long siteSamples) {
        double accesses = (double) siteSamples * profile.period;
        return accesses >= 1e6 ? String.format(Locale.ROOT, "%.1f M", accesses / 1e6)
                : accesses >= 1e3 ? String.format(Locale.ROOT, "%.1f k", accesses / 1e3)
                : String.format(Locale.ROOT, "%.0f", accesses);
    }

    private static long percent(long part, long whole) {
        return whole == 0 ? 0 : Math.round(100.0 * part / whole);
    }
}
