package dev.distvm.objectspace;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which tasks compute too briefly to be worth a node: placing a thread costs the home its
 * searches, the start message and the refresh in it (about a millisecond of the home's time on a
 * machine of two cores), and the thread's end a release; a program that starts thousands of
 * threads that compute for microseconds each ran several times slower on three nodes than on one.
 * A worker says how much CPU time each placed thread used (not how long it lived: a thread that
 * waits for other nodes, or for the home's answer to a latch, computes nothing meanwhile); once
 * three in four of the placed threads of one task (its class: a {@code Runnable}'s, a lambda's, a
 * {@code Thread} subclass's) used less than {@link #SHORT_NANOS}, the next threads of that task run
 * at the home, as on one node. The first threads of any task are placed, so the rule learns from
 * what they did; a task whose threads compute for longer is placed as before.
 */
final class ShortThreads {
    /** A thread that computes for less than this costs more to place than it computes. */
    static final long SHORT_NANOS = 2_000_000;
    /** Why a thread of such a task stays home, for the run report. */
    static final String KEPT_HOME = "its task's placed threads computed for less than " + SHORT_NANOS / 1_000_000
            + " ms each, less than placing one costs";
    /** How many placed threads of a task must have ended before the rule judges it. */
    static final int JUDGED_AFTER = 4;

    private final Map<Class<?>, Runs> byTask = new ConcurrentHashMap<>();

    /** The placed threads of one task that ended, and how many of them ran briefly. */
    private static final class Runs {
        int ended;
        int brief;
    }

    /** A placed thread of {@code task} ended after computing for {@code nanos} of CPU time on its node. */
    void ran(Class<?> task, long nanos) {
        Runs runs = byTask.computeIfAbsent(task, t -> new Runs());
        synchronized (runs) {
            runs.ended++;
            if (nanos < SHORT_NANOS) {
                runs.brief++;
            }
        }
    }

    /** Whether threads of {@code task} compute too briefly to be placed: three in four of its judged ones did. */
    boolean tooShort(Class<?> task) {
        Runs runs = byTask.get(task);
        if (runs == null) {
            return false;
        }
        synchronized (runs) {
            return runs.ended >= JUDGED_AFTER && 4 * runs.brief >= 3 * runs.ended;
        }
    }
}
