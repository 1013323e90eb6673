package samples.bin;

import samples.KernelTime;

/**
 * Manta's Bin: a bounded buffer (a ring of long slots with synchronized put/take that wait while
 * full/empty and notifyAll after each change) shared by Producer and Consumer threads (Thread
 * subclasses). Producer p puts the items with global indices [items*p/P, items*(p+1)/P), item i
 * having the value value(i); consumer c takes a fixed quota of items and keeps its own count and
 * sum. Which consumer gets which item depends on the schedule, but main prints only the totals,
 * which are the same for every run and every thread count.
 *
 * <p>usage: BoundedBuffer [threads] [items] [capacity] — threads/2 producers (at least one) and
 * the remaining threads as consumers (at least one), so 1 thread still means 1 + 1. Defaults: 4,
 * 20000, 16 (every put and take is a monitor operation, which on a worker is a round trip).
 */
public final class BoundedBuffer {
    private final long[] slots;
    private int head, count;

    BoundedBuffer(int capacity) { slots = new long[capacity]; }

    synchronized void put(long value) throws InterruptedException {
        while (count == slots.length) wait();
        slots[(head + count) % slots.length] = value;
        count++;
        notifyAll();
    }

    synchronized long take() throws InterruptedException {
        while (count == 0) wait();
        long value = slots[head];
        head = (head + 1) % slots.length;
        count--;
        notifyAll();
        return value;
    }

    static BoundedBuffer buffer;

    static long value(long i) {
        long x = (i + 1) * 0x9E3779B97F4A7C15L;
        return (x ^ (x >>> 29)) & 0xFFFFF; // 0 .. 2^20-1
    }

    static final class Producer extends Thread {
        private final long from, to;
        Producer(int id, long from, long to) { super("producer-" + id); this.from = from; this.to = to; }

        @Override
        public void run() {
            try {
                for (long i = from; i < to; i++) buffer.put(value(i));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static final class Consumer extends Thread {
        private final long quota;
        long count, sum;
        Consumer(int id, long quota) { super("consumer-" + id); this.quota = quota; }

        @Override
        public void run() {
            try {
                for (long k = 0; k < quota; k++) {
                    sum += buffer.take();
                    count++;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        long items = args.length > 1 ? Long.parseLong(args[1]) : 20_000L;
        int capacity = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        int producers = Math.max(1, threads / 2), consumers = Math.max(1, threads - producers);
        buffer = new BoundedBuffer(capacity);
        long kernel = KernelTime.start();
        Consumer[] takers = new Consumer[consumers];
        for (int c = 0; c < consumers; c++) {
            takers[c] = new Consumer(c, items * (c + 1) / consumers - items * c / consumers);
            takers[c].start();
        }
        Producer[] makers = new Producer[producers];
        for (int p = 0; p < producers; p++) {
            makers[p] = new Producer(p, items * p / producers, items * (p + 1) / producers);
            makers[p].start();
        }
        for (Producer p : makers) p.join();
        long count = 0, sum = 0;
        for (Consumer c : takers) {
            c.join();
            count += c.count;
            sum += c.sum;
        }
        KernelTime.report(kernel);
        System.out.printf("items %d capacity %d: consumed %d, sum %d%n", items, capacity, count, sum);
    }
}
