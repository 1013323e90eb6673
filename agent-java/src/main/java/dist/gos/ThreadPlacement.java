package dist.gos;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Where each application thread this node started ran, and why: for the run report. */
public final class ThreadPlacement {
    private static final List<String> DECISIONS = new CopyOnWriteArrayList<>();

    private ThreadPlacement() {}

    static void record(String decision) {
        DECISIONS.add(decision);
    }

    /** Each placement decision of this node, in order, as "thread name: decision". */
    public static List<String> decisions() {
        return List.copyOf(DECISIONS);
    }
}
