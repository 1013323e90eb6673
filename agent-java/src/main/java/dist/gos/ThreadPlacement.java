package dist.gos;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where an application thread runs. Every thread runs at the home for now: a thread placed on a
 * worker needs the global object space (copies of what it reaches, monitors managed by the
 * objects' home), which is not built yet, and running it there without one would give wrong
 * answers. Each decision is kept, with its reason, for the run report.
 */
public final class ThreadPlacement {
    static final String NO_OBJECT_SPACE =
            "kept home: the global object space is not implemented yet, so a worker could not see this thread's objects";
    private static final List<String> DECISIONS = new CopyOnWriteArrayList<>();

    private ThreadPlacement() {}

    static void start(Thread thread) {
        thread.start();
        DECISIONS.add(thread.getName() + ": " + NO_OBJECT_SPACE);
    }

    /** Each placement decision of this node, in order, as "thread name: decision". */
    public static List<String> decisions() {
        return List.copyOf(DECISIONS);
    }
}
