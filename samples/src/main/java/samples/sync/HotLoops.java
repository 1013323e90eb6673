package samples.sync;

import java.util.StringJoiner;
import samples.KernelTime;

/**
 * The driver that {@link SyncMethods} and {@link SyncBlocks} share: N callers in a hot loop, first
 * each on a counter of its own (its monitor uncontended), then all on one counter (contended). Each
 * mode's totals are checked against what the calls must add up to before anything is printed.
 */
final class HotLoops {
    private HotLoops() {}

    /** Makes caller {@code id} of a mode, which counts into {@code counter} (null: into one of its own). */
    interface Callers {
        Caller create(int id, Counter counter, long calls);
    }

    /**
     * usage: [threads] [calls per thread] [own|shared|both] (defaults 4, 50000, both: a fraction of a
     * second on one JVM, but every contended call may cross the network on a cluster).
     */
    static void run(String kernel, String[] args, Callers callers) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long calls = args.length > 1 ? Long.parseLong(args[1]) : 50_000L;
        String modes = args.length > 2 ? args[2] : "both";
        if (!modes.equals("own") && !modes.equals("shared") && !modes.equals("both")) {
            throw new IllegalArgumentException("the third argument is own, shared or both, not '" + modes + "'");
        }
        StringJoiner line = new StringJoiner("; ", kernel + ", " + threads + " threads x " + calls + " calls: ", "");
        long perThreadSum = calls * (calls - 1) / 2;
        long started = KernelTime.start();
        if (!modes.equals("shared")) {
            Caller[] ran = runCallers(threads, calls, callers, null);
            for (int t = 0; t < threads; t++) {
                check(kernel + ", own counter of thread " + t, ran[t].counter, calls, perThreadSum);
            }
            line.add("own counters " + calls + " calls and sum " + perThreadSum + " each");
        }
        if (!modes.equals("own")) {
            Counter shared = new Counter();
            runCallers(threads, calls, callers, shared);
            check(kernel + ", shared counter", shared, threads * calls, threads * perThreadSum);
            line.add("shared counter " + shared.calls + " calls and sum " + shared.sum);
        }
        KernelTime.report(started);
        System.out.println(line);
    }

    /** The callers, each started and joined, all on {@code counter} or (null) each on one of its own. */
    private static Caller[] runCallers(int threads, long calls, Callers callers, Counter counter)
            throws InterruptedException {
        Caller[] running = new Caller[threads];
        for (int t = 0; t < threads; t++) {
            running[t] = callers.create(t, counter, calls);
            running[t].start();
        }
        for (Caller c : running) {
            c.join();
        }
        return running;
    }

    private static void check(String what, Counter counter, long calls, long sum) {
        if (counter.calls != calls || counter.sum != sum) {
            throw new IllegalStateException(what + " counted " + counter.calls + " calls with sum " + counter.sum
                    + ", expected " + calls + " and " + sum + ": updates under the monitor were lost");
        }
    }
}
