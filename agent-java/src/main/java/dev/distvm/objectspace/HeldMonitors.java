package dev.distvm.objectspace;

import dev.distvm.report.NodeCounters;
import java.util.Arrays;

/**
 * The shared monitors one worker thread holds, innermost last, once per enter: a re-entry of a
 * monitor the thread holds already needs nothing from the node's lease ({@link MonitorLeases}: no
 * other thread can use it meanwhile), and {@code wait}/{@code notify} go to the home for these
 * monitors only (on any other object, copies this thread locked before they were shared included,
 * they are the JVM's own).
 */
final class HeldMonitors {
    /**
     * Enters this thread took through its node's lease without a message, not yet added to
     * {@link NodeCounters#MONITOR_LOCAL}: an atomic add per enter was a tenth of an uncontended
     * re-entry. Added every {@link #batch} enters and when the thread's task ends.
     */
    private int localEnters;
    private final int batch;
    private Object[] held = new Object[8];
    private int count;
    /**
     * The state of the copy this thread entered last, so that a thread re-entering one monitor in
     * a loop finds its node's lease without the table's lock. A state given back is never granted
     * again (its owner stays null), so a stale one sends the thread to the table.
     */
    private Object lastCopy;
    private MonitorLeases.Held lastState;

    /** {@code batch}: enters counted here before they are added to the node's counter (1: at once). */
    HeldMonitors(int batch) {
        this.batch = batch;
    }

    /** An enter through the node's lease, without a message. */
    void enteredLocally() {
        if (++localEnters >= batch) {
            countEnters();
        }
    }

    /** Adds the enters counted here to the node's counter (at the end of the thread's task, before it tells the home). */
    void countEnters() {
        NodeCounters.MONITOR_LOCAL.add(localEnters);
        localEnters = 0;
    }

    /** The node's state of {@code copy}'s monitor as this thread last saw it, or null. */
    MonitorLeases.Held lastState(Object copy) {
        return lastCopy == copy ? lastState : null;
    }

    void remember(Object copy, MonitorLeases.Held state) {
        if (lastState != state) { // a loop re-entering one monitor writes nothing
            lastCopy = copy;
            lastState = state;
        }
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

    /**
     * Ends the innermost hold of {@code copy}: returns whether that was the thread's last hold of
     * it; false also when the thread does not hold it as a shared monitor (nothing to end).
     */
    boolean exitedLast(Object copy) {
        for (int i = count - 1; i >= 0; i--) {
            if (held[i] == copy) {
                if (i < count - 1) { // not the innermost hold: rare, monitors nest in order
                    System.arraycopy(held, i + 1, held, i, count - i - 1);
                }
                held[--count] = null;
                return !holds(copy);
            }
        }
        return false;
    }
}
