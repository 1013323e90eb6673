package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharingTableTest {
    @Test
    void anAccessIsRemoteWhenAnotherThreadWroteTheObjectSinceThisOneLastTouchedIt() {
        SharingTable table = new SharingTable();
        Object object = new Object();
        assertFalse(table.touch(object, 1, true), "a first write");
        assertFalse(table.touch(object, 1, false), "the writer reads its own write");
        assertTrue(table.touch(object, 2, false), "another thread reads it");
        assertFalse(table.touch(object, 2, false), "and again: its copy is current");
        assertFalse(table.touch(object, 2, true), "it writes: it had the latest version");
        assertTrue(table.touch(object, 1, true), "the first writes after it");
        assertTrue(table.touch(object, 2, true), "the second writes after the first");
        assertFalse(table.touch(new Object(), 2, true), "another object");
    }

    @Test
    void anObjectOnlyReadIsNeverRemoteHoweverManyThreadsReadIt() {
        SharingTable table = new SharingTable();
        Object object = new Object();
        for (long thread = 1; thread <= 20; thread++) {
            assertFalse(table.touch(object, thread, false), "read by thread " + thread);
        }
    }

    @Test
    void aFullTableForgetsObjectsButNeverInventsARemoteAccess() {
        SharingTable table = new SharingTable();
        List<Object> objects = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            objects.add(new Object());
            assertFalse(table.touch(objects.get(i), i, true), "object " + i + " is new");
        }
        for (int i = 0; i < objects.size(); i++) {
            assertFalse(table.touch(objects.get(i), i, true), "object " + i + " was only ever touched by thread " + i);
        }
    }
}
