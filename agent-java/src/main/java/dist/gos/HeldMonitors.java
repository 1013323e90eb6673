package dist.gos;

import java.util.Arrays;

/**
 * The shared monitors one worker thread holds, innermost last, once per enter: a re-entry of a
 * monitor the thread holds already needs no message (the home's monitor is its delegate's, and no
 * other thread can release into it meanwhile), and {@code wait}/{@code notify} without the
 * monitor fail here, as the JVM fails them, instead of at the home.
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

    /** Ends the innermost hold of {@code copy}; returns whether the thread still holds it (a re-entry ended). */
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

    void requireHeld(Object copy) {
        if (!holds(copy)) {
            throw new IllegalMonitorStateException("current thread is not owner");
        }
    }
}
