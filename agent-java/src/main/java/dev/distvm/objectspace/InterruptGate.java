package dev.distvm.objectspace;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Keeps interrupts away from threads while they write to a socket. The transport writes on the
 * caller's thread, and an interrupt that arrives during a write to an NIO channel closes the
 * connection (and fails every request waiting on it); so an interrupt the program or the home sends
 * to a thread that is writing is held back and delivered the moment the write is done; one the
 * thread had before it began to write (an interrupt it has not looked at yet, or set again after
 * catching {@code InterruptedException}, as programs do) would close the connection just as well,
 * so it is put aside for the write and restored after. Waiting for a reply is not writing: an
 * interrupt then goes through at once.
 */
final class InterruptGate {
    private static final Set<Thread> WRITING = new HashSet<>();
    private static final Set<Thread> HELD = new HashSet<>();

    private InterruptGate() {}

    /** Runs {@code write} (a transport send) with interrupts of this thread held back. */
    static <T> T writing(Supplier<T> write) {
        Thread me = Thread.currentThread();
        synchronized (WRITING) {
            WRITING.add(me);
        }
        boolean pending = Thread.interrupted();
        try {
            return write.get();
        } finally {
            synchronized (WRITING) {
                WRITING.remove(me);
                if (HELD.remove(me) | pending) {
                    me.interrupt();
                }
            }
        }
    }

    static void interrupt(Thread thread) {
        synchronized (WRITING) {
            if (WRITING.contains(thread)) {
                HELD.add(thread);
            } else {
                thread.interrupt();
            }
        }
    }
}
