package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WeakIdentityMapTest {
    /** Equal to every other instance: the map must tell them apart by identity. */
    private static final class Same {
        @Override
        public boolean equals(Object other) {
            return other instanceof Same;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    @Test
    void keysAreComparedByIdentity() {
        WeakIdentityMap<Object, String> map = new WeakIdentityMap<>();
        Same a = new Same();
        Same b = new Same();
        map.put(a, "a");
        map.put(b, "b");
        assertEquals("a", map.get(a));
        assertEquals("b", map.get(b));
        assertEquals("a", map.remove(a));
        assertNull(map.get(a));
        assertEquals("b", map.get(b));
        assertEquals(1, map.size());
    }

    @Test
    void holdsManyAndLetsGoOfCollectedKeys() throws InterruptedException {
        WeakIdentityMap<Object, Integer> map = new WeakIdentityMap<>();
        List<Object> kept = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Object key = new Object();
            map.put(key, i);
            if (i % 10 == 0) {
                kept.add(key);
            }
        }
        for (int i = 0; i < kept.size(); i++) {
            assertEquals(i * 10, map.get(kept.get(i)));
        }
        for (int attempt = 0; attempt < 500 && map.size() > kept.size(); attempt++) {
            System.gc();
            Thread.sleep(1);
        }
        assertEquals(kept.size(), map.size(), "the keys nobody holds are gone");
        assertTrue(map.get(kept.get(kept.size() - 1)) != null);
    }
}
