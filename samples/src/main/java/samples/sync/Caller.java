package samples.sync;

/** A thread that makes {@code calls} calls, passing 0, 1, 2, ..., each a monitor operation on {@code counter}. */
abstract class Caller extends Thread {
    final Counter counter;
    private final long calls;

    Caller(String name, Counter counter, long calls) {
        super(name);
        this.counter = counter;
        this.calls = calls;
    }

    /** One monitor operation that counts {@code value} into the counter. */
    abstract void call(long value);

    @Override
    public void run() {
        for (long i = 0; i < calls; i++) {
            call(i);
        }
    }
}
