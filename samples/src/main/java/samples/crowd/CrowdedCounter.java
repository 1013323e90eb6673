package samples.crowd;

import samples.KernelTime;

/**
 * Many short threads, all started before any is joined, each incrementing one shared counter a few
 * times under its lock: the shape of a program that forks a thread per small request and lets them
 * all contend for one monitor. Main starts every thread, joins them all, and checks the count.
 *
 * <p>usage: CrowdedCounter [threads] [increments per thread] [block|method|static] (defaults 500,
 * 20, block): a {@code synchronized (counter)} block, a synchronized method of the counter, or a
 * static synchronized method incrementing a static field.
 */
public final class CrowdedCounter {
    private int count;
    private static int staticCount;

    private CrowdedCounter() {}

    synchronized void increment() {
        count++;
    }

    static synchronized void incrementStatic() {
        staticCount++;
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int increments = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        String shape = args.length > 2 ? args[2] : "block";
        CrowdedCounter counter = new CrowdedCounter();
        Runnable task = switch (shape) {
            case "block" -> () -> {
                for (int i = 0; i < increments; i++) {
                    synchronized (counter) {
                        counter.count++;
                    }
                }
            };
            case "method" -> () -> {
                for (int i = 0; i < increments; i++) {
                    counter.increment();
                }
            };
            case "static" -> () -> {
                for (int i = 0; i < increments; i++) {
                    incrementStatic();
                }
            };
            default -> throw new IllegalArgumentException("shape must be block, method or static, got " + shape);
        };
        long kernel = KernelTime.start();
        Thread[] started = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            started[t] = new Thread(task, "incrementer-" + t);
            started[t].start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        KernelTime.report(kernel);
        int count;
        synchronized (CrowdedCounter.class) {
            count = shape.equals("static") ? staticCount : counter.count;
        }
        long expected = (long) threads * increments;
        if (count != expected) {
            throw new IllegalStateException(threads + " threads incrementing " + increments + " times each counted "
                    + count + ", expected " + expected + ": an increment was lost");
        }
        System.out.println(threads + " threads x " + increments + " synchronized increments = " + count);
    }
}
