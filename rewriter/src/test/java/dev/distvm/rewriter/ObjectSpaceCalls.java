package dev.distvm.rewriter;

import java.util.ArrayList;
import java.util.List;

/**
 * What the object-space hooks of {@link RecordingHooks} were called with, in the form the object-space
 * tests check, and the single-JVM answers they give: every copy is valid, so faults only record;
 * class initializers run unless a test says otherwise.
 */
final class ObjectSpaceCalls {
    private static final List<String> calls = new ArrayList<>();
    private static final List<Object> targets = new ArrayList<>();
    static volatile boolean runClassInitializers = true;

    private ObjectSpaceCalls() {}

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

    static synchronized void record(String hook, Object target) {
        if (target == null) {
            calls.add(hook);
            return;
        }
        targets.add(target);
        calls.add(hook + " " + (target instanceof Class<?> type ? simpleName(type) + ".class" : simpleName(target.getClass())));
    }

    /** As {@link #record(String, Object)}, followed by what the call named (a field): "hook Target detail". */
    static synchronized void record(String hook, Object target, String detail) {
        record(hook, target);
        calls.set(calls.size() - 1, calls.get(calls.size() - 1) + " " + detail);
    }

    /** The name after package and enclosing classes: Class.getSimpleName() fails for a subject whose declaring class is in another loader. */
    static String simpleName(Class<?> type) {
        return simpleName(type.getName());
    }

    /** As {@link #simpleName(Class)}, of a binary or internal class name. */
    static String simpleName(String className) {
        return className.substring(Math.max(Math.max(className.lastIndexOf('.'), className.lastIndexOf('/')),
                className.lastIndexOf('$')) + 1);
    }
}
