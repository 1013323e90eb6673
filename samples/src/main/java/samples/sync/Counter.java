package samples.sync;

/** What the callers count: how many calls reached it and the sum of the values they brought. */
final class Counter {
    long calls, sum;

    synchronized void add(long value) {
        calls++;
        sum += value;
    }
}
