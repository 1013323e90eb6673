package dev.distvm.objectspace;

import java.util.Arrays;

/**
 * The shared monitors one worker thread holds, innermost last, once per enter: a re-entry of a
 * monitor the thread holds already needs nothing from the node's lease ({@link MonitorLeases}: no
 * other thread can use it meanwhile), and {@code wait}/{@code notify} go to the home for these
 * monitors only (on any other object, copies this thread locked before they were shared included,
 * they are the JVM's own).
 */
final class HeldMonitors {
    private Object[] held = new Object[8];
    private int count;
    /**
     * The state of the copy this thread entered last, so that a thread re-entering one monitor in
     * a loop finds its node's lease without the table's lock. A state given back is never granted
     * again (its owner stays null), so a stale one sends the thread to the table.
     */
    private Object lastCopy;
    private MonitorLeases.Held lastState;

    /** The node's state of {@code copy}'s monitor as this thread last saw it, or null. */
    MonitorLeases.Held lastState(Object copy) {
        return lastCopy == copy ? lastState : null;
    }

    void remember(Object copy, MonitorLeases.Held state) {
        lastCopy = copy;
        lastState = state;
    }

    boolean holds(Object copy) {
        for (int i = count - 1; i >= 0; i--) {
            if (held[i] == copy) {
                return true;
            }
        }
        return false;
    }

    void entered(Object copy) {
        if (count == held.length) {
            held = Arrays.copyOf(held, count * 2);
        }
        held[count++] = copy;
    }

    /** Ends the innermost hold of {@code copy}, which the thread holds; returns whether it still holds it (a re-entry ended). */
    boolean exited(Object copy) {
        for (int i = count - 1; i >= 0; i--) {
            if (held[i] == copy) {
                System.arraycopy(held, i + 1, held, i, count - i - 1);
                held[--count] = null;
                return holds(copy);
            }
        }
        throw new IllegalMonitorStateException("current thread is not owner");
    }
}
