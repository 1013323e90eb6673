package samples.sync;

/** A thread that makes {@code calls} calls, passing 0, 1, 2, ..., each a monitor operation on {@code counter}. */
abstract class Caller extends Thread {
    /**
     * Null until the thread starts when it is to count on a counter of its own: it then makes the
     * counter itself, in its own allocation buffer, as a thread's private objects are made. Counters
     * that {@code main} made one after another shared cache lines, and whether two did decided the
     * kernel's time by a factor of four (48 against 228 ms, 2 threads x 2 million calls, plain JVM).
     */
    Counter counter;
    private final long calls;

    /** {@code counter} null: the thread counts on one of its own, made when it starts. */
    Caller(String name, Counter counter, long calls) {
        super(name);
        this.counter = counter;
        this.calls = calls;
    }

    /** One monitor operation that counts {@code value} into the counter. */
    abstract void call(long value);

    @Override
    public void run() {
        if (counter == null) {
            counter = new Counter();
        }
        for (long i = 0; i < calls; i++) {
            call(i);
        }
    }
}
