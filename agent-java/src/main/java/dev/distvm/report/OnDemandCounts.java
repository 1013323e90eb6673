package dev.distvm.report;

import dev.distvm.node.proto.OnDemand;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per class of the arrays sent on demand (without their values, fetched a run of chunks at a time
 * where a worker's threads use them): on a worker, the arrays it got so and what its faults fetched;
 * at the home, the arrays it sent so and what it answered to faults.
 */
public final class OnDemandCounts {
    /** The most classes a node report lists (those with the most bytes). */
    public static final int LISTED = 20;

    private record Counts(String className, LongAdder arrays, LongAdder fetches, LongAdder chunks, LongAdder bytes) {}

    private static final Queue<Counts> ALL = new ConcurrentLinkedQueue<>();
    private static final ClassValue<Counts> OF_CLASS = new ClassValue<>() {
        @Override
        protected Counts computeValue(Class<?> type) {
            Counts counts = new Counts(type.getTypeName(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder());
            ALL.add(counts);
            return counts;
        }
    };

    private OnDemandCounts() {}

    /** An array of {@code type} went to a worker (or came from the home) on demand. */
    public static void sentOnDemand(Class<?> type) {
        OF_CLASS.get(type).arrays.increment();
    }

    /** A fault of an array of {@code type} fetched {@code chunks} chunks in a message of {@code bytes} (or answered it). */
    public static void fetched(Class<?> type, int chunks, long bytes) {
        Counts counts = OF_CLASS.get(type);
        counts.fetches.increment();
        counts.chunks.add(chunks);
        counts.bytes.add(bytes);
    }

    /** The classes with arrays on demand, most bytes first, at most {@link #LISTED}. */
    public static List<OnDemand> listed() {
        List<Counts> counted = new ArrayList<>(ALL);
        counted.sort(Comparator.comparingLong((Counts c) -> c.bytes.sum()).thenComparingLong(c -> c.arrays.sum()).reversed());
        List<OnDemand> listed = new ArrayList<>();
        for (Counts counts : counted.subList(0, Math.min(LISTED, counted.size()))) {
            listed.add(OnDemand.newBuilder().setClassName(counts.className()).setArrays(counts.arrays.sum())
                    .setFetches(counts.fetches.sum()).setChunks(counts.chunks.sum()).setBytes(counts.bytes.sum()).build());
        }
        return listed;
    }

    /** How many classes {@link #listed} leaves out. */
    public static int notListed() {
        return Math.max(0, ALL.size() - LISTED);
    }
}
