package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.transport.WireBuffer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ForwardedCallsTest {
    private static final List<Class<?>> FORWARDED = List.of(CountDownLatch.class, CyclicBarrier.class);

    /** A copy holds nothing, so a method it left to the JDK would run on no state: every public one must be its own, on this JDK too. */
    @Test
    void copiesOverrideEveryPublicMethodOfTheirJdkClass() throws NoSuchMethodException {
        for (Class<?> type : FORWARDED) {
            Class<?> copy = Instances.object(type).getClass();
            assertTrue(ForwardedCalls.isShared(copy) && copy.getSuperclass() == type, copy.getName());
            for (Method method : type.getMethods()) {
                if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class) {
                    continue;
                }
                assertFalse(Modifier.isFinal(method.getModifiers()), method + " is final: a copy cannot run it at the home");
                assertEquals(copy, copy.getMethod(method.getName(), method.getParameterTypes()).getDeclaringClass(),
                        method + " is not overridden by " + copy.getName());
            }
            for (String name : List.of("toString", "hashCode")) {
                assertEquals(copy, copy.getMethod(name).getDeclaringClass(), name + " of " + copy.getName());
            }
        }
    }

    /**
     * Each override names its method by a key written by hand: every one must name a method a
     * worker may call. Outside a worker the call fails where it would leave for the home, after
     * the key was looked up (a wrong key fails before, differently).
     */
    @Test
    void everyOverrideNamesItsJdkMethod() throws IllegalAccessException {
        for (Class<?> type : FORWARDED) {
            Object copy = Instances.object(type);
            List<String> reached = new ArrayList<>();
            for (Method method : copy.getClass().getDeclaredMethods()) {
                if (!Modifier.isPublic(method.getModifiers()) || method.getName().equals("hashCode")) {
                    continue;
                }
                Object[] arguments = method.getParameterCount() == 0 ? new Object[0] : new Object[] {1L, TimeUnit.SECONDS};
                InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
                        () -> method.invoke(copy, arguments), method.toString());
                assertInstanceOf(IllegalStateException.class, thrown.getCause(), method.toString());
                assertTrue(thrown.getCause().getMessage().contains("outside a worker"), thrown.getCause().getMessage());
                reached.add(ForwardedCalls.key(method));
            }
            assertTrue(reached.size() >= 5, type + ": " + reached);
        }
    }

    @Test
    void onlyTheSynchronizersOwnPublicMethodsMayBeCalled() throws NoSuchMethodException {
        Method await = CyclicBarrier.class.getMethod("await", long.class, TimeUnit.class);
        assertEquals("await(JLjava/util/concurrent/TimeUnit;)I", ForwardedCalls.key(await));
        assertEquals(await, ForwardedCalls.method(CyclicBarrier.class, ForwardedCalls.key(await)));
        assertEquals("toString()Ljava/lang/String;",
                ForwardedCalls.key(ForwardedCalls.method(CountDownLatch.class, "toString()Ljava/lang/String;")));
        assertThrows(IllegalArgumentException.class, () -> ForwardedCalls.method(CountDownLatch.class, "notifyAll()V"));
        assertThrows(IllegalArgumentException.class, () -> ForwardedCalls.method(CountDownLatch.class, "await(J)V"));
        assertThrows(IllegalArgumentException.class, () -> ForwardedCalls.method(Object.class, "toString()Ljava/lang/String;"));
    }

    /** A worker asks the home about a thread elsewhere: four questions of the home's, nothing of {@code Thread}'s own. */
    @Test
    void aThreadIsAskedOnlyTheHomesQuestions() {
        Thread subclass = new Thread() {};
        for (String question : List.of("join(J)V", "isAlive()Z", "getState()Ljava/lang/String;", "interrupt()V")) {
            assertEquals(ThreadsElsewhere.AtHome.class, ForwardedCalls.method(Thread.class, question).getDeclaringClass());
            assertEquals(question, ForwardedCalls.key(ForwardedCalls.method(subclass.getClass(), question)));
        }
        assertThrows(IllegalArgumentException.class, () -> ForwardedCalls.method(Thread.class, "join(JI)V"));
        assertThrows(IllegalArgumentException.class, () -> ForwardedCalls.method(Thread.class, "setName(Ljava/lang/String;)V"));
        assertEquals(ThreadsElsewhere.AtHome.class, ForwardedCalls.target(subclass).getClass());
        CountDownLatch latch = new CountDownLatch(1);
        assertEquals(latch, ForwardedCalls.target(latch));
    }

    @Test
    void argumentsAndResultsTravelAsTheirTypes() throws NoSuchMethodException {
        Method timed = CountDownLatch.class.getMethod("await", long.class, TimeUnit.class);
        WireBuffer out = new WireBuffer();
        ForwardedCalls.writeArguments(out, timed, new Object[] {250L, TimeUnit.MILLISECONDS});
        ForwardedCalls.writeValue(out, int.class, -7);
        ForwardedCalls.writeValue(out, boolean.class, true);
        ForwardedCalls.writeValue(out, String.class, "[Count = 3]");
        ForwardedCalls.writeValue(out, String.class, null);
        ForwardedCalls.writeValue(out, void.class, null);
        ByteBuffer in = ByteBuffer.wrap(out.toByteArray());
        Object[] arguments = ForwardedCalls.readArguments(in, timed);
        assertEquals(250L, arguments[0]);
        assertEquals(TimeUnit.MILLISECONDS, arguments[1]);
        assertEquals(-7, ForwardedCalls.readValue(in, int.class));
        assertEquals(true, ForwardedCalls.readValue(in, boolean.class));
        assertEquals("[Count = 3]", ForwardedCalls.readValue(in, String.class));
        assertEquals(null, ForwardedCalls.readValue(in, String.class));
        assertEquals(null, ForwardedCalls.readValue(in, void.class));
        assertFalse(in.hasRemaining());
    }

    /** The registry knows them, like arrays; a copy carries no slots, and a worker's own is refused with the reason. */
    @Test
    void sharedByTheRegistryWithoutStateAndNeverFromAWorker() {
        CountDownLatch latch = new CountDownLatch(2);
        assertFalse(InjectedState.hasMeta(latch));
        assertFalse(InjectedState.hasMeta(Instances.object(CountDownLatch.class)));
        assertEquals(0, Slots.of(latch).count(latch));
        assertTrue(WireWriter.isHolder(latch));
        UnsharableException refused = assertThrows(UnsharableException.class, () -> ForwardedCalls.refuseFromWorker(latch));
        assertTrue(refused.getMessage().contains("made on a worker"), refused.getMessage());
        ForwardedCalls.refuseFromWorker(new Object()); // anything else is not this class's business
    }
}
