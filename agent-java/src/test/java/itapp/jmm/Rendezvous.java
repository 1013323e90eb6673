package itapp.jmm;

/**
 * A barrier, a hold and a mixer made of synchronized methods that wait and touch only this
 * object's fields: the shape a worker runs at the home once other nodes use the monitor.
 */
class Rendezvous {
    private final int parties;
    private int arrived;
    private int generation;
    private int holding;
    private boolean mixing;

    Rendezvous(int parties) {
        this.parties = parties;
    }

    /** Waits for every party; returns the generation it ended. */
    synchronized int await() throws InterruptedException {
        int mine = generation;
        if (++arrived == parties) {
            arrived = 0;
            generation++;
            notifyAll();
        } else {
            while (generation == mine) {
                wait();
            }
        }
        return mine + 1;
    }

    /** Waits until interrupted. */
    synchronized void hold() throws InterruptedException {
        holding++;
        notifyAll();
        while (true) {
            wait();
        }
    }

    /** Waits until interrupted, and takes the interrupt as the signal to return. */
    synchronized boolean holdQuietly() {
        holding++;
        notifyAll();
        try {
            while (true) {
                wait();
            }
        } catch (InterruptedException e) {
            return true;
        }
    }

    /** Waits until interrupted, and keeps the interrupt pending for the caller as the idiom does. */
    synchronized void holdKeepingInterrupt() {
        holding++;
        notifyAll();
        while (true) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    synchronized void awaitHolding(int count) {
        try {
            while (holding < count) {
                wait();
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Values of every primitive type in and out. */
    synchronized double mix(byte b, short s, char c, float f, double d, boolean negate) throws InterruptedException {
        while (mixing) {
            wait();
        }
        double sum = b + s + c + f + d;
        return negate ? -sum : sum;
    }

    /** Counts the barrier's calls in an override that is not synchronized and calls the barrier's own. */
    static final class Counting extends Rendezvous {
        private int calls;

        Counting(int parties) {
            super(parties);
        }

        @Override
        int await() throws InterruptedException {
            synchronized (this) {
                calls++;
            }
            return super.await();
        }

        synchronized int calls() {
            return calls;
        }
    }
}
