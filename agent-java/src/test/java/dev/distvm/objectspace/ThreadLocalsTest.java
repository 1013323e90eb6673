package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ThreadLocalsTest {
    /** A supplier that is an application object (the test's lambdas are not rewritten). */
    static final class Counting implements Supplier<StringBuilder> {
        int made;

        @Override
        public StringBuilder get() {
            made++;
            return new StringBuilder("made " + made);
        }
    }

    /** An application subclass with a field of its own. */
    static final class StartingAt extends ThreadLocal<Integer> {
        int start = 7;

        @Override
        protected Integer initialValue() {
            return start;
        }
    }

    @Test
    void copiesMadeWithoutTheirConstructorAreThreadLocalsOfTheirOwn() {
        @SuppressWarnings("unchecked")
        ThreadLocal<String> first = (ThreadLocal<String>) Instances.object(ThreadLocal.class);
        @SuppressWarnings("unchecked")
        ThreadLocal<String> second = (ThreadLocal<String>) Instances.object(ThreadLocal.class);
        first.set("first");
        second.set("second");
        assertEquals("first", first.get());
        assertEquals("second", second.get());
        second.remove();
        assertEquals("first", first.get());
        assertNull(second.get());
        first.remove();
    }

    @Test
    void aSuppliedThreadLocalsCopyTakesItsSupplierThroughItsOneSlot() {
        Counting supplier = new Counting();
        ThreadLocal<StringBuilder> master = ThreadLocal.withInitial(supplier);
        Slots slots = Slots.of(master);
        assertEquals(1, slots.count(master));
        assertSame(supplier, slots.get(master, 0));

        Object copy = Instances.object(master.getClass());
        slots.set(copy, 0, supplier);
        @SuppressWarnings("unchecked")
        ThreadLocal<StringBuilder> local = (ThreadLocal<StringBuilder>) copy;
        assertEquals("made 1", local.get().toString());
        assertEquals("made 1", local.get().toString(), "one value per thread");
        assertThrows(IllegalStateException.class, () -> slots.compareAndSet(copy, 0, supplier, new Counting()));
        local.remove();
    }

    @Test
    void theJdksThreadLocalsAreKnownToTheRegistryAndAnApplicationSubclassCarriesItsOwnFields() {
        assertFalse(InjectedState.hasMeta(new ThreadLocal<>()));
        assertFalse(InjectedState.hasMeta(ThreadLocal.withInitial(new Counting())));
        assertTrue(InjectedState.hasMeta(new InheritableThreadLocal<>()), "not shared: it is no holder");
        ThreadLocal<Integer> subclass = new StartingAt();
        assertEquals(1, Slots.of(subclass).count(subclass), "its own field, none of ThreadLocal's");
        ThreadLocal<String> plain = new ThreadLocal<>();
        assertEquals(0, Slots.of(plain).count(plain));
    }

    @Test
    void inheritableThreadLocalsAreRefusedWithTheReason() {
        UnsharableException plain = assertThrows(UnsharableException.class,
                () -> UnsharableSearch.refuse(new Object[] {new InheritableThreadLocal<String>()}, holder -> false));
        assertTrue(plain.getMessage().contains("not inheritable ones"), plain.getMessage());
        InheritableThreadLocal<String> subclass = new InheritableThreadLocal<>() {
            @Override
            protected String childValue(String parent) {
                return parent + "'s child";
            }
        };
        UnsharableException refused = assertThrows(UnsharableException.class,
                () -> UnsharableSearch.refuse(new Object[] {subclass}, holder -> false));
        assertTrue(refused.getMessage().contains("copies its values where the thread is made"), refused.getMessage());
    }

    @Test
    void threadLocalsAreNoObstacleToAThreadsTask() {
        assertDoesNotThrow(() -> UnsharableSearch.refuse(
                new Object[] {new ThreadLocal<String>(), ThreadLocal.withInitial(new Counting())}, holder -> false));
    }
}
