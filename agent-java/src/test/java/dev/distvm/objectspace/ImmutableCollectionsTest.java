package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ImmutableCollectionsTest {
    private static Object again(Object collection) {
        return ImmutableCollections.of(ImmutableCollections.kind(collection), ImmutableCollections.elements(collection).toArray());
    }

    @Test
    void eachImmutableCollectionIsMadeAgainEqualAndOfItsClass() {
        List<Object> all = List.of(List.of(), List.of("a"), List.of("a", "b", "c"), Set.of(), Set.of(1), Set.of(1, 2, 3),
                Map.of(), Map.of("k", 1), Map.of("k", 1, "l", 2, "m", 3), Stream.of("x", null, "z").toList(),
                List.copyOf(new ArrayList<>(List.of(4, 5))));
        for (Object collection : all) {
            assertTrue(ImmutableCollections.is(collection), collection.getClass().getName());
            Object made = again(collection);
            assertEquals(collection, made);
            assertSame(collection.getClass(), made.getClass(), collection.toString());
        }
    }

    @Test
    void viewsAndMutableCollectionsAreNotAmongThem() {
        assertFalse(ImmutableCollections.is(new ArrayList<>(List.of(1))));
        assertFalse(ImmutableCollections.is(List.of(1, 2, 3).subList(0, 2)), "a sub-list is a view");
        assertFalse(ImmutableCollections.is(Collections.unmodifiableList(new ArrayList<>())), "a view of a mutable list");
    }

    @Test
    void aMapWithAnOddNumberOfKeysAndValuesIsABadMessage() {
        assertThrows(IllegalArgumentException.class, () -> ImmutableCollections.of(ImmutableCollections.MAP, new Object[] {"k"}));
    }
}
