package dev.distvm.objectspace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The JDK's unmodifiable collections ({@code List.of}, {@code Set.of}, {@code Map.of}, their
 * {@code copyOf}, a stream's {@code toList()}) travel by value, as strings do: they cannot change,
 * so a copy on each node is what the program could see of the one it made; their elements travel as
 * any value (an application object by id). A receiver gets an equal collection of the same class,
 * and one that is not empty carries an id ({@link ValueIdentities}): a list stored twice arrives as
 * one object, and one that goes out and comes back is the one that went. Only these exact classes:
 * a view ({@code subList}, an unmodifiable wrapper of a mutable collection) is not immutable and
 * cannot be shared.
 */
final class ImmutableCollections {
    static final int LIST = 0, SET = 1, MAP = 2;
    // Set.copyOf: the empty one and a larger one may share their class.
    private static final Set<Class<?>> LISTS = Set.copyOf(List.of(List.of().getClass(), List.of(1).getClass(), List.of(1, 2, 3).getClass()));
    private static final Set<Class<?>> SETS = Set.copyOf(List.of(Set.of().getClass(), Set.of(1).getClass(), Set.of(1, 2, 3).getClass()));
    private static final Set<Class<?>> MAPS = Set.copyOf(List.of(Map.of().getClass(), Map.of(1, 1).getClass(),
            Map.of(1, 1, 2, 2).getClass()));

    private ImmutableCollections() {}

    static boolean is(Object value) {
        return isOneOf(value.getClass());
    }

    static boolean isOneOf(Class<?> type) {
        return LISTS.contains(type) || SETS.contains(type) || MAPS.contains(type);
    }

    /** {@link #LIST}, {@link #SET} or {@link #MAP}; {@code value} is one of them ({@link #is}). */
    static int kind(Object value) {
        Class<?> type = value.getClass();
        return LISTS.contains(type) ? LIST : SETS.contains(type) ? SET : MAP;
    }

    /** The elements in iteration order; a map's keys and values, alternating. */
    static List<Object> elements(Object collection) {
        if (collection instanceof Map<?, ?> map) {
            List<Object> elements = new ArrayList<>(2 * map.size());
            map.forEach((key, value) -> {
                elements.add(key);
                elements.add(value);
            });
            return elements;
        }
        return new ArrayList<>((Collection<?>) collection);
    }

    /** The collection of {@code kind} with {@code elements}, as {@link #elements} gave them. */
    static Object of(int kind, Object[] elements) {
        return switch (kind) {
            case LIST -> Arrays.asList(elements).contains(null) ? Stream.of(elements).toList() : List.of(elements); // toList() allows nulls
            case SET -> Set.of(elements);
            case MAP -> {
                if (elements.length % 2 != 0) {
                    throw new IllegalArgumentException("object-space message: an immutable map of " + elements.length + " keys and values");
                }
                Map.Entry<?, ?>[] entries = new Map.Entry<?, ?>[elements.length / 2];
                for (int i = 0; i < entries.length; i++) {
                    entries[i] = Map.entry(elements[2 * i], elements[2 * i + 1]);
                }
                yield Map.ofEntries(entries);
            }
            default -> throw new IllegalArgumentException("object-space message: an immutable collection of kind " + kind);
        };
    }
}
