package dev.distvm.objectspace;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class MonitorWordTest {
    @Test
    void thisJvmsHeadersAreReadAsExpected() {
        // Otherwise every object pushed home would get a lease: correct, but each a delegate thread.
        assertTrue(MonitorWord.readable(), "the mark word of " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.vm.version") + " is not laid out as MonitorWord expects");
    }

    @Test
    void anObjectNobodyLockedIsNotHeld() {
        assertFalse(MonitorWord.mayBeHeld(new Object()));
        assertFalse(MonitorWord.mayBeHeld(new int[3]));
    }

    @Test
    void anObjectAnotherThreadHoldsIsHeldUntilItLetsGo() throws InterruptedException {
        Object lock = new Object();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (lock) {
                holding.countDown();
                awaitQuietly(letGo);
            }
        });
        holder.start();
        holding.await();
        assertTrue(MonitorWord.mayBeHeld(lock));
        letGo.countDown();
        holder.join();
        assertFalse(MonitorWord.mayBeHeld(lock), "an object whose monitor was let go, never contended");
    }

    @Test
    void anObjectThisThreadHoldsIsHeld() {
        Object lock = new Object();
        synchronized (lock) {
            assertTrue(MonitorWord.mayBeHeld(lock));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
