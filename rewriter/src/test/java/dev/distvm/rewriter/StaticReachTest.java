package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StaticReachTest {
    private static final String SELF = "dev/distvm/rewriter/StaticReachTest";

    static final class Totals {
        static long sum;
        static long unused;
        static Object registry;
    }

    static final class Helper {
        static void add(long value) {
            Totals.sum += value;
        }

        static void neverCalled() {
            Totals.unused++;
        }
    }

    static class Base implements Runnable {
        @Override
        public void run() {
            Helper.add(1);
        }
    }

    static final class Derived extends Base {}

    /** A registry whose class initializer makes the JDK list its static holds. */
    static final class Registry {
        static final java.util.List<String> NAMES = new java.util.ArrayList<>();

        static synchronized void add(String name) {
            NAMES.add(name);
        }
    }

    static final class Registrar implements Runnable {
        @Override
        public void run() {
            Registry.add("me");
        }
    }

    static final class Spawner implements Runnable {
        @Override
        public void run() {
            Runnable inner = () -> Totals.registry = new Object();
            inner.run();
        }
    }

    static final class Locker implements Runnable {
        static final String NAMED = "named";
        final Integer boxed = 7;
        final Object plain = new Object();

        @Override
        public void run() {
            synchronized (NAMED) {
                synchronized ("literal") {
                    synchronized (boxed) {
                        synchronized (this) {
                            synchronized (plain) {
                                Totals.sum++;
                            }
                        }
                    }
                }
            }
        }
    }

    static final class Publisher implements Runnable {
        final Object[] results = new Object[2];
        Object kept;

        @Override
        public void run() {
            java.util.List<Integer> collected = new java.util.ArrayList<>();
            collected.add(1);
            results[0] = collected;
            keep(new Thread(this));
            StringBuilder local = new StringBuilder();
            local.append(1); // made and used, never stored: not named
            java.util.Map<String, Integer> counts = new java.util.HashMap<>();
            local.append(String.format("%s %d", counts, results.length)); // handed to the JDK in a varargs array: not named
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            Object[] row = {seen};
            results[1] = row; // an array that goes on, with a set in it: named
        }

        void keep(Thread thread) {
            kept = thread;
        }
    }

    static final class Reflector implements Runnable {
        int count;

        @Override
        public void run() {
            try {
                java.lang.reflect.Field field = Reflector.class.getDeclaredField("count");
                field.setAccessible(true); // not a write
                field.setInt(this, field.getInt(this) + 1);
                java.lang.invoke.VarHandle.fullFence(); // not a write
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Only this test's own classes count as the application's; String and friends have no bytes. */
    private static byte[] bytes(String internalName) {
        if (!internalName.startsWith(SELF)) {
            return null;
        }
        try (InputStream in = StaticReachTest.class.getResourceAsStream("/" + internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StaticReach.Field totals(String name) {
        return new StaticReach.Field(SELF + "$Totals", name);
    }

    @Test
    void followsCallsIntoHelpersAndFindsOnlyTheFieldsTheyUse() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Base", "run", "()V", 100);
        assertTrue(reach.complete());
        assertEquals(Set.of(totals("sum")), reach.fields());
    }

    @Test
    void findsAnInheritedMethodInTheSuperclass() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Derived", "run", "()V", 100);
        assertEquals(Set.of(totals("sum")), reach.fields());
    }

    @Test
    void followsALambdaToItsImplementation() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Spawner", "run", "()V", 100);
        assertTrue(reach.fields().contains(totals("registry")), reach.fields().toString());
        assertFalse(reach.fields().contains(totals("unused")), reach.fields().toString());
    }

    @Test
    void findsTheDeclaredTypesOfLockedFieldsAndConstantsButNotOfLocals() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Locker", "run", "()V", 100);
        assertEquals(Set.of("Ljava/lang/String;", "Ljava/lang/Integer;", "Ljava/lang/Object;"), reach.lockedTypes());
    }

    @Test
    void findsTheTypesOfValuesStoredIntoArraysAndFieldsThroughLocalsAndParameters() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Publisher", "run", "()V", 100);
        String publisher = SELF.replace('/', '.') + "$Publisher";
        assertEquals(java.util.Map.of("Ljava/util/ArrayList;", publisher + ".run", "Ljava/lang/Thread;", publisher + ".keep",
                "Ljava/util/HashSet;", publisher + ".run"), reach.storedTypes());
    }

    @Test
    void followsTheClassInitializerOfAClassWhoseStaticsTheCodeUses() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Registrar", "run", "()V", 100);
        assertEquals(Set.of(new StaticReach.Field(SELF + "$Registry", "NAMES")), reach.fields());
        assertEquals(java.util.Map.of("Ljava/util/ArrayList;", SELF.replace('/', '.') + "$Registry.<clinit>"), reach.storedTypes());
    }

    @Test
    void findsWritesThroughReflectionButNotItsReadsOrFences() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Reflector", "run", "()V", 100);
        assertEquals(java.util.Map.of("java.lang.reflect.Field.setInt", SELF.replace('/', '.') + "$Reflector.run"),
                reach.reflectiveWrites());
    }

    @Test
    void saysWhenItStoppedAtItsLimit() {
        StaticReach.Reach reach = new StaticReach(StaticReachTest::bytes).from(SELF + "$Base", "run", "()V", 1);
        assertFalse(reach.complete());
    }
}
