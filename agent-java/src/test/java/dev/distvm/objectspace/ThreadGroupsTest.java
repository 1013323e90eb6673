package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ThreadGroupsTest {
    private static ByteBuffer pathOf(Thread thread) {
        WireBuffer out = new WireBuffer();
        ThreadGroups.writePath(thread, out);
        return ByteBuffer.wrap(out.toByteArray());
    }

    @Test
    void aThreadsGroupIsMadeAgainUnderTheProgramsGroupByItsNamesOnce() {
        ThreadGroup program = Thread.currentThread().getThreadGroup(); // "main", under "system"
        ThreadGroup solvers = new ThreadGroup(program, "solvers");
        ThreadGroup inner = new ThreadGroup(solvers, "inner");
        Thread thread = new Thread(inner, () -> { }, "t");
        ThreadGroups groups = new ThreadGroups(program); // a worker's program group has the home's names

        ThreadGroup made = groups.read(pathOf(thread));
        assertEquals("inner", made.getName());
        assertEquals("solvers", made.getParent().getName());
        assertSame(program, made.getParent().getParent());
        assertNotSame(inner, made, "a stand-in, made here");
        assertSame(made, groups.read(pathOf(thread)), "made once");
        assertSame(program, groups.read(pathOf(new Thread(program, () -> { }))), "a thread of main's own group");
    }
}
