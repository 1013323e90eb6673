package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharingTableTest {
    /** Node 1 of every cluster size, and node 2. */
    private static final int ON_NODE_1 = 1 | 1 << 3 | 1 << 6;
    private static final int ON_NODE_2 = 2 | 2 << 3 | 2 << 6;

    private static boolean remote(SharingTable table, Object object, long thread, boolean write) {
        return (table.touch(object, thread, 0, write) & SharingTable.REMOTE) != 0;
    }

    @Test
    void atTheNodeLevelAnAccessIsRemoteWhenAnotherNodeWroteSinceAnyThreadOfThisNodeTouchedTheObject() {
        SharingTable table = new SharingTable();
        Object object = new Object();
        long a = 1;
        long b = 2;
        long c = 3;
        assertEquals(0, table.touch(object, a, ON_NODE_1, true), "a first write, by a on node 1");
        int answer = table.touch(object, b, ON_NODE_1, false);
        assertEquals(SharingTable.REMOTE, answer, "b, also on node 1, reads: remote only with a node per thread");
        answer = table.touch(object, c, ON_NODE_2, false);
        for (int cluster = 0; cluster < 3; cluster++) {
            assertTrue(SharingTable.remoteAt(answer, cluster), "c on node 2 reads what node 1 wrote, cluster " + cluster);
            assertEquals(1, SharingTable.writerNodeAt(answer, cluster), "written on node 1, cluster " + cluster);
        }
        assertEquals(0, table.touch(object, c, ON_NODE_2, true), "c writes its current copy");
        answer = table.touch(object, b, ON_NODE_1, false);
        assertTrue(SharingTable.remoteAt(answer, 1), "b reads what node 2 wrote");
        assertEquals(2, SharingTable.writerNodeAt(answer, 1));
        answer = table.touch(object, a, ON_NODE_1, false);
        assertEquals(SharingTable.REMOTE, answer, "a reads after b brought the write to node 1: remote only per thread");
    }
    @Test
    void anAccessIsRemoteWhenAnotherThreadWroteTheObjectSinceThisOneLastTouchedIt() {
        SharingTable table = new SharingTable();
        Object object = new Object();
        assertFalse(remote(table, object, 1, true), "a first write");
        assertFalse(remote(table, object, 1, false), "the writer reads its own write");
        assertTrue(remote(table, object, 2, false), "another thread reads it");
        assertFalse(remote(table, object, 2, false), "and again: its copy is current");
        assertFalse(remote(table, object, 2, true), "it writes: it had the latest version");
        assertTrue(remote(table, object, 1, true), "the first writes after it");
        assertTrue(remote(table, object, 2, true), "the second writes after the first");
        assertFalse(remote(table, new Object(), 2, true), "another object");
    }

    @Test
    void anObjectOnlyReadIsNeverRemoteHoweverManyThreadsReadIt() {
        SharingTable table = new SharingTable();
        Object object = new Object();
        for (long thread = 1; thread <= 20; thread++) {
            assertFalse(remote(table, object, thread, false), "read by thread " + thread);
        }
    }

    @Test
    void aFullTableForgetsObjectsButNeverInventsARemoteAccess() {
        SharingTable table = new SharingTable();
        List<Object> objects = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            objects.add(new Object());
            assertFalse(remote(table, objects.get(i), i, true), "object " + i + " is new");
        }
        for (int i = 0; i < objects.size(); i++) {
            assertFalse(remote(table, objects.get(i), i, true), "object " + i + " was only ever touched by thread " + i);
        }
    }
}
