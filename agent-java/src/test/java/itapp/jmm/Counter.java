package itapp.jmm;

/** Re-entrant instance locking and class-wide static locking. */
final class Counter {
    static long total;
    int value;

    synchronized void addTwiceReentrantly() {
        addOnce();
        synchronized (this) {
            value++;
        }
    }

    private synchronized void addOnce() {
        value++;
    }

    static synchronized void addStatic() {
        total++;
    }
}
