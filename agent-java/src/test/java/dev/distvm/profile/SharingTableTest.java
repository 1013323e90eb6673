package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharingTableTest {
    @Test
    void anObjectIsSharedOnceASecondThreadTouchesIt() {
        SharingTable table = new SharingTable();
        Object object = new Object();
        assertFalse(table.touch(object, 1));
        assertFalse(table.touch(object, 1), "one thread again");
        assertTrue(table.touch(object, 2));
        assertTrue(table.touch(object, 1), "shared stays shared");
        assertFalse(table.touch(new Object(), 2), "another object");
    }

    @Test
    void aFullTableForgetsObjectsButNeverInventsSharing() {
        SharingTable table = new SharingTable();
        List<Object> objects = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            objects.add(new Object());
            assertFalse(table.touch(objects.get(i), i), "object " + i + " is new");
        }
        for (int i = 0; i < objects.size(); i++) {
            assertFalse(table.touch(objects.get(i), i), "object " + i + " was only ever touched by thread " + i);
        }
    }
}
