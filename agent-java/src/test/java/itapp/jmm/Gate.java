package itapp.jmm;

/** Threads wait at the gate until it is opened for one or for all. */
final class Gate {
    private int waiting;
    private int permits;
    private int passed;

    synchronized void pass() {
        waiting++;
        notifyAll();
        while (permits == 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                return;
            }
        }
        permits--;
        passed++;
        notifyAll();
    }

    /** Waits until interrupted; true when that is how the wait ended. */
    synchronized boolean waitUntilInterrupted() {
        waiting++;
        notifyAll();
        try {
            while (true) {
                wait();
            }
        } catch (InterruptedException e) {
            return true;
        }
    }

    synchronized void open(boolean everyone) {
        if (everyone) {
            permits = waiting;
            notifyAll();
        } else {
            permits++;
            notify();
        }
    }

    synchronized void awaitWaiting(int count) throws InterruptedException {
        while (waiting < count) {
            wait();
        }
    }

    synchronized void awaitPassed(int count) throws InterruptedException {
        while (passed < count) {
            wait();
        }
    }

    synchronized int passed() {
        return passed;
    }
}
