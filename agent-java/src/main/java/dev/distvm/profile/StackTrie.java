package dev.distvm.profile;

import static dev.distvm.report.RunReport.quote;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stacks of remote accesses, merged where they share their outer frames: the flame graph's data.
 * Each node counts the stacks that pass through it. One per thread, written only by it while
 * sampling; the report merges them once sampling ended.
 */
final class StackTrie {
    /** Frames kept of a stack, from the access outwards: deeper ones are recursion, rarely the answer. */
    static final int MAX_DEPTH = 48;
    private static final StackWalker WALKER = StackWalker.getInstance();
    /** Frames of the profiler above the access: this method, the thread's record, the hooks' two. */
    private static final int PROFILER_FRAMES = 4;
    private static final String HOOKS = AccessHooks.class.getName();

    private final Map<String, StackTrie> children = new HashMap<>();
    private long count;

    /** Adds the calling thread's stack from the frame that called the hooks (the access) outwards. */
    void addCurrentStack() {
        List<String> frames = WALKER.walk(stack -> {
            List<StackWalker.StackFrame> all = stack.limit(MAX_DEPTH + PROFILER_FRAMES).toList();
            int access = 1; // called from elsewhere than the hooks: from this method's caller
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).getClassName().equals(HOOKS)) {
                    access = i + 1;
                }
            }
            return all.subList(Math.min(access, all.size()), Math.min(all.size(), access + MAX_DEPTH)).stream()
                    .map(frame -> frame.getClassName() + "." + frame.getMethodName()
                            + (frame.getLineNumber() > 0 ? ":" + frame.getLineNumber() : ""))
                    .toList();
        });
        add(frames, 1);
    }

    /** Adds a stack given innermost frame first, {@code weight} times. */
    void add(List<String> innermostFirst, long weight) {
        StackTrie node = this;
        node.count += weight;
        for (int i = innermostFirst.size() - 1; i >= 0; i--) {
            node = node.children.computeIfAbsent(innermostFirst.get(i), frame -> new StackTrie());
            node.count += weight;
        }
    }

    void addAll(StackTrie other) {
        count += other.count;
        other.children.forEach((frame, child) -> children.computeIfAbsent(frame, f -> new StackTrie()).addAll(child));
    }

    long count() {
        return count;
    }

    /**
     * JSON {@code {"name": ..., "value": N, "children": [...]}}, leaving out the branches under
     * {@code smallest} stacks (a page of a flame graph cannot show them, and a long run has many).
     */
    void appendJson(String name, long smallest, StringBuilder json) {
        json.append("{\"name\": ").append(quote(name)).append(", \"value\": ").append(count).append(", \"children\": [");
        List<Map.Entry<String, StackTrie>> shown = new ArrayList<>();
        for (Map.Entry<String, StackTrie> child : children.entrySet()) {
            if (child.getValue().count >= smallest) {
                shown.add(child);
            }
        }
        shown.sort(Comparator.comparing(Map.Entry::getKey));
        for (int i = 0; i < shown.size(); i++) {
            json.append(i == 0 ? "" : ", ");
            shown.get(i).getValue().appendJson(shown.get(i).getKey(), smallest, json);
        }
        json.append("]}");
    }
}
