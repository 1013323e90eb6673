package dist.rewriter;

import java.util.ArrayList;
import java.util.List;

/**
 * The hook class rewritten test subjects call, with the contract's signatures and the single-JVM
 * behaviour: every copy is valid, so faults only record; class initializers run unless a test says
 * otherwise; identity hashes are the JVM's.
 */
public final class RecordingHook {
    private static final List<String> calls = new ArrayList<>();
    private static final List<Object> targets = new ArrayList<>();
    static volatile boolean runClassInitializers = true;

    private RecordingHook() {}

    static synchronized void reset() {
        calls.clear();
        targets.clear();
        runClassInitializers = true;
    }

    /** "hook Target" per call, where a class target is written "Name.class" and an object "Name". */
    static synchronized List<String> calls(String... hooks) {
        List<String> selected = new ArrayList<>();
        for (String call : calls) {
            for (String hook : hooks) {
                if (call.equals(hook) || call.startsWith(hook + " ")) {
                    selected.add(call);
                }
            }
        }
        return selected;
    }

    static synchronized List<Object> targets() {
        return new ArrayList<>(targets);
    }

    private static synchronized void record(String hook, Object target) {
        if (target == null) {
            calls.add(hook);
            return;
        }
        targets.add(target);
        calls.add(hook + " " + (target instanceof Class<?> type ? type.getSimpleName() + ".class" : target.getClass().getSimpleName()));
    }

    public static void written(Object target) {
        record("written", target);
    }

    public static void staticFault(Class<?> type) {
        record("staticFault", type);
    }

    public static boolean runClassInitializer(Class<?> type) {
        record("runClassInitializer", type);
        return runClassInitializers;
    }

    public static void beforeVolatileRead(Object target) {
        record("beforeVolatileRead", target);
    }

    public static void afterVolatileRead() {
        record("afterVolatileRead", null);
    }

    public static void beforeVolatileWrite() {
        record("beforeVolatileWrite", null);
    }

    public static void afterVolatileWrite(Object target) {
        record("afterVolatileWrite", target);
    }

    public static int identityHashCode(Object object) {
        record("identityHashCode", object);
        return System.identityHashCode(object);
    }
}
