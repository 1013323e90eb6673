package dev.distvm.report;

import dev.distvm.node.proto.ThreadRecord;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The application threads this JVM ran, for the run report (the first ones, and how many more). */
public final class ApplicationThreads {
    private static final BoundedRecords<ThreadRecord> RAN = new BoundedRecords<>();
    /** The dist threads that ran application code on request, each recorded once. */
    private static final Set<Long> INVOCATIONS = ConcurrentHashMap.newKeySet();

    private ApplicationThreads() {}

    /** A thread that application code started here (through {@code dev.distvm.objectspace.Hooks.start}). */
    public static void started(Thread thread) {
        RAN.add(record(thread, "started"));
    }

    /** A thread the home placed on this worker; {@code logicalId} is its id at the home. */
    public static void placed(Thread thread, long logicalId) {
        RAN.add(ThreadRecord.newBuilder().setName(thread.getName()).setId(logicalId).setKind("placed").build());
    }

    /** The thread that runs {@code main}. */
    public static void main(Thread thread) {
        RAN.add(record(thread, "main"));
    }

    /** A dist thread that ran application code on request of another node. */
    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+, and dist runs on 17
    public static void invocation(Thread thread) {
        if (INVOCATIONS.add(thread.getId())) {
            RAN.add(record(thread, "invocation"));
        }
    }

    public static List<ThreadRecord> all() {
        return RAN.listed();
    }

    /** Threads that ran after those {@link #all} lists. */
    public static long notListed() {
        return RAN.notListed();
    }

    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+, and dist runs on 17
    private static ThreadRecord record(Thread thread, String kind) {
        return ThreadRecord.newBuilder().setName(thread.getName()).setId(thread.getId()).setKind(kind).build();
    }
}
