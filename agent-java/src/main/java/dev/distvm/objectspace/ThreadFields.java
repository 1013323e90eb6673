package dev.distvm.objectspace;

import java.lang.reflect.Field;

/**
 * The private state of {@code java.lang.Thread} that dist reads and sets (java.lang is opened to
 * dist, see the agent): up to JDK 20 Thread's own fields, from JDK 21 those of its
 * {@code holder}. What dist cannot see keeps the thread home ({@link UnsharableException}).
 */
final class ThreadFields {
    /** JVMTI's bit for a thread that ended, as Thread's {@code threadStatus} holds it. */
    private static final int TERMINATED = 0x0002;

    private ThreadFields() {}

    /** The Runnable given to Thread's constructor. */
    static Object task(Thread thread) {
        return get(thread, "target", "task", "what the thread runs");
    }

    /**
     * The stack size given to Thread's constructor (0: the JVM's default). A thread whose size dist
     * cannot see stays home: on another node it could overflow a stack where the program's did not.
     */
    static long stackSize(Thread thread) {
        return (Long) get(thread, "stackSize", "stackSize", "the thread's stack size");
    }

    /**
     * {@code shell}, the home's Thread of a thread that ran and ended on another node (it never
     * started here), says what an ended thread says to JDK code that reads it ({@code toString()},
     * {@code getThreadGroup()}, {@code getState()}): no group, terminated, as the JVM leaves a
     * thread that exited. The program's own calls are answered by {@link PlacedThreads}. Best
     * effort: where the fields are not as expected, the shell stays as it is.
     */
    static void markEnded(Thread shell) {
        try {
            Field status = Thread.class.getDeclaredField("threadStatus");
            status.setAccessible(true);
            status.setInt(shell, TERMINATED);
            Field group = Thread.class.getDeclaredField("group");
            group.setAccessible(true);
            group.set(shell, null);
        } catch (NoSuchFieldException e) {
            try {
                Object holder = field(Thread.class, "holder").get(shell);
                field(holder.getClass(), "threadStatus").setInt(holder, TERMINATED); // its group goes with the status
            } catch (ReflectiveOperationException | RuntimeException ignored) {
                // a JDK of another layout: the shell keeps its group in toString()
            }
        } catch (ReflectiveOperationException | RuntimeException ignored) {
            // as above
        }
    }

    /** Thread's field {@code upToJdk20}, or from JDK 21 its {@code holder}'s field {@code fromJdk21}. */
    private static Object get(Thread thread, String upToJdk20, String fromJdk21, String what) {
        try {
            return field(Thread.class, upToJdk20).get(thread);
        } catch (NoSuchFieldException e) {
            try {
                Object holder = field(Thread.class, "holder").get(thread);
                return field(holder.getClass(), fromJdk21).get(holder);
            } catch (ReflectiveOperationException | RuntimeException inner) {
                throw new UnsharableException(Thread.class, "dist cannot see " + what + " (" + inner + ")");
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new UnsharableException(Thread.class, "dist cannot see " + what + " (" + e + ")");
        }
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field field = owner.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
