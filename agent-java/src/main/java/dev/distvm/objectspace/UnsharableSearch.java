package dev.distvm.objectspace;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Looks through what a message would carry for an object that cannot be shared, before the writer
 * marks anything shared. The writer marks each holder shared before it reads its state (so that
 * no concurrent write is missed) and undoes that when it meets a JDK object; until it does, the
 * other threads' writes to those holders are tracked, a trace of a thread that was kept home. When
 * this search finds the JDK object first, there is no such window. The writer stays the authority:
 * what this search cannot see (the graph changed in between, or the object lies behind a holder that
 * is shared already) only brings back the undo.
 */
final class UnsharableSearch {
    private UnsharableSearch() {}

    /** An object the search reached, and how: from {@code from} through {@code via} (a field, an element, a capture). */
    private record Reached(Object value, Reached from, String via) {
        /** The way from the root, as a user reads it: {@code Task.items[2].next}, or {@code a lambda of Main, captured value 0}. */
        String path() {
            StringBuilder path = new StringBuilder();
            Reached step = this;
            while (step.from != null) {
                path.insert(0, step.via);
                step = step.from;
            }
            return describe(step.value) + path;
        }

        private static String describe(Object root) {
            String name = root.getClass().getName();
            int lambda = name.indexOf("$$Lambda");
            return lambda > 0 ? "a lambda of " + name.substring(0, lambda) : name;
        }
    }

    /** Throws {@link UnsharableException} for the first unsharable object reachable from {@code root}, not looking past holders {@code shared} accepts. */
    static void refuse(Object root, Predicate<Object> shared) {
        Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Reached> pending = new ArrayDeque<>();
        pushIfPresent(pending, root, null, null);
        while (!pending.isEmpty()) {
            Reached reached = pending.pop();
            Object value = reached.value();
            PerNodeState.refuse(value);
            if (WireWriter.travelsByValue(value)) {
                continue;
            }
            if (Lambdas.isLambda(value)) {
                List<Object> captured = Lambdas.captured(value);
                for (int i = 0; i < captured.size(); i++) {
                    pushIfPresent(pending, captured.get(i), reached, ", captured value " + i);
                }
            } else if (!WireWriter.isHolder(value)) {
                if (!ImmutableCollections.is(value)) {
                    throw WireWriter.jdkObject(value.getClass(), reached.from() == null ? null : reached.path());
                }
                List<Object> elements = ImmutableCollections.elements(value);
                for (int i = 0; i < elements.size(); i++) {
                    pushIfPresent(pending, elements.get(i), reached, ", element " + i);
                }
            } else if (visited.add(value) && !shared.test(value) && !isPrimitiveArray(value)) {
                Slots slots = Slots.of(value);
                for (int slot = 0, count = slots.count(value); slot < count; slot++) {
                    if (!slots.isPrimitive(slot)) {
                        pushIfPresent(pending, slots.get(value, slot), reached, slots.name(slot));
                    }
                }
            }
        }
    }

    private static boolean isPrimitiveArray(Object holder) {
        Class<?> component = holder.getClass().getComponentType();
        return component != null && component.isPrimitive();
    }

    private static void pushIfPresent(Deque<Reached> pending, Object value, Reached from, String via) {
        if (value != null) {
            pending.push(new Reached(value, from, via));
        }
    }
}
