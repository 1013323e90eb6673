package dist.node;

import dist.node.proto.ThreadRecord;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The application threads this JVM ran, for the run report. */
public final class ApplicationThreads {
    private static final List<ThreadRecord> RAN = new CopyOnWriteArrayList<>();

    private ApplicationThreads() {}

    /** A thread that application code started here (through {@code dist.gos.Hooks.start}). */
    public static void started(Thread thread) {
        RAN.add(record(thread, "started"));
    }

    /** A thread the home placed on this worker; {@code logicalId} is its id at the home. */
    public static void placed(Thread thread, long logicalId) {
        RAN.add(ThreadRecord.newBuilder().setName(thread.getName()).setId(logicalId).setKind("placed").build());
    }

    /** The thread that runs {@code main}. */
    static void main(Thread thread) {
        RAN.add(record(thread, "main"));
    }

    /** A dist thread that ran application code on request of another node. */
    static void invocation(Thread thread) {
        for (ThreadRecord seen : RAN) {
            if (seen.getId() == thread.getId() && seen.getKind().equals("invocation")) {
                return;
            }
        }
        RAN.add(record(thread, "invocation"));
    }

    static List<ThreadRecord> all() {
        return List.copyOf(RAN);
    }

    @SuppressWarnings("deprecation") // getId: threadId() is Java 19+, and dist runs on 17
    private static ThreadRecord record(Thread thread, String kind) {
        return ThreadRecord.newBuilder().setName(thread.getName()).setId(thread.getId()).setKind(kind).build();
    }
}
