package itapp.gc;

/**
 * Forks and joins many short threads, a few at a time, each with its own task object and result
 * array, summing into one shared total: every task, its array and its thread become garbage once
 * joined, so what a node holds at the end must not grow with the number of threads. Prints the
 * total, which it checks against the closed form. Usage: ForkJoinMany [threads] [at a time].
 */
public final class ForkJoinMany {
    private ForkJoinMany() {}

    static final class Total {
        long sum;
    }

    static final class Task implements Runnable {
        private final Total total;
        private final int index;
        private final long[] partial = new long[8];

        Task(Total total, int index) {
            this.total = total;
            this.index = index;
        }

        @Override
        public void run() {
            for (int i = 0; i < partial.length; i++) {
                partial[i] = (long) index * partial.length + i;
            }
            long sum = 0;
            for (long value : partial) {
                sum += value;
            }
            synchronized (total) {
                total.sum += sum;
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int atATime = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        Total total = new Total();
        for (int started = 0; started < threads; started += atATime) {
            Thread[] batch = new Thread[Math.min(atATime, threads - started)];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = new Thread(new Task(total, started + i), "fork-" + (started + i));
                batch[i].start();
            }
            for (Thread t : batch) {
                t.join();
            }
        }
        long elements = (long) threads * 8;
        long expected = elements * (elements - 1) / 2;
        synchronized (total) {
            System.out.println(total.sum == expected ? "sum " + total.sum + " ok" : "sum " + total.sum + " WRONG, expected " + expected);
        }
    }
}
