package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnsharableSearchTest {
    static final class Node {
        Node next;
        Object payload;
        int[] counts = new int[1_000];
        String name = "node";
    }

    @Test
    void findsAJdkCollectionBehindACycleOfApplicationObjectsAndArrays() {
        Node first = new Node();
        Node second = new Node();
        first.next = second;
        second.next = first;
        second.payload = new Object[] {42, first, new Object[] {new ArrayList<String>()}};
        UnsharableException refused = assertThrows(UnsharableException.class,
                () -> UnsharableSearch.refuse(first, holder -> false));
        assertTrue(refused.getMessage().contains("java.util.ArrayList"), refused.getMessage());
    }

    @Test
    void acceptsAGraphOfApplicationObjectsArraysAndValuesWithCycles() {
        Node first = new Node();
        first.next = first;
        first.payload = new Object[] {1L, 'c', Thread.State.NEW.getClass(), first, null};
        assertDoesNotThrow(() -> UnsharableSearch.refuse(first, holder -> false));
    }

    @Test
    void doesNotLookPastHoldersThatAreSharedAlready() {
        Node first = new Node();
        Node shared = new Node();
        first.next = shared;
        shared.payload = new ArrayList<>(List.of("behind a shared holder: the writer sends that holder by id"));
        assertDoesNotThrow(() -> UnsharableSearch.refuse(first, holder -> holder == shared));
        assertThrows(UnsharableException.class, () -> UnsharableSearch.refuse(first, holder -> false));
    }

    @Test
    void refusesALambdaThatDistDidNotRewrite() {
        Runnable task = () -> { };
        assertThrows(UnsharableException.class, () -> UnsharableSearch.refuse(task, holder -> false));
    }
}
