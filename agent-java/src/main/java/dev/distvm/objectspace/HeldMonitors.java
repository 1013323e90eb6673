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
