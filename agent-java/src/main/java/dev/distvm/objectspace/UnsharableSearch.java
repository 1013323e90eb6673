package dev.distvm.objectspace;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
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

    /** Throws {@link UnsharableException} for the first unsharable object reachable from {@code root}, not looking past holders {@code shared} accepts. */
    static void refuse(Object root, Predicate<Object> shared) {
        Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> pending = new ArrayDeque<>();
        pushIfPresent(pending, root);
        while (!pending.isEmpty()) {
            Object value = pending.pop();
            PerNodeState.refuse(value);
            if (WireWriter.travelsByValue(value)) {
                continue;
            }
            if (Lambdas.isLambda(value)) {
                for (Object captured : Lambdas.captured(value)) {
                    pushIfPresent(pending, captured);
                }
            } else if (!WireWriter.isHolder(value)) {
                throw WireWriter.jdkObject(value.getClass());
            } else if (visited.add(value) && !shared.test(value) && !isPrimitiveArray(value)) {
                Slots slots = Slots.of(value);
                for (int slot = 0, count = slots.count(value); slot < count; slot++) {
                    if (!slots.isPrimitive(slot)) {
                        pushIfPresent(pending, slots.get(value, slot));
                    }
                }
            }
        }
    }

    private static boolean isPrimitiveArray(Object holder) {
        Class<?> component = holder.getClass().getComponentType();
        return component != null && component.isPrimitive();
    }

    private static void pushIfPresent(Deque<Object> pending, Object value) {
        if (value != null) {
            pending.push(value);
        }
    }
}
