package samples.forkjoin;

import samples.KernelTime;

/**
 * Thousands of short-lived threads, started and joined a few at a time in a loop: the shape of a
 * program that forks a thread per small task instead of using a pool (a per-request server thread,
 * a divide step that spawns and joins). Task i counts the Collatz steps of i + 1 into slot i of a
 * shared array; main checks the total against the same count done sequentially.
 *
 * <p>What it exercises: the cost and bookkeeping of starting, ending and joining a thread, many
 * times, and join making each task's slot visible to main.
 *
 * <p>usage: ShortThreads [threads at a time] [tasks] (defaults 4, 10000)
 */
public final class ShortThreads {
    private ShortThreads() {}

    static int collatzSteps(long value) {
        int steps = 0;
        for (long v = value; v != 1; steps++) {
            v = (v & 1) == 0 ? v >>> 1 : 3 * v + 1;
        }
        return steps;
    }

    public static void main(String[] args) throws InterruptedException {
        int width = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int[] steps = new int[tasks];
        long kernel = KernelTime.start();
        Thread[] batch = new Thread[width];
        for (int first = 0; first < tasks; first += width) {
            int size = Math.min(width, tasks - first);
            for (int b = 0; b < size; b++) {
                final int task = first + b;
                batch[b] = new Thread(() -> steps[task] = collatzSteps(task + 1), "task-" + task);
                batch[b].start();
            }
            for (int b = 0; b < size; b++) {
                batch[b].join();
            }
        }
        KernelTime.report(kernel);
        long total = 0, expected = 0;
        int longest = 0;
        for (int i = 0; i < tasks; i++) {
            total += steps[i];
            expected += collatzSteps(i + 1);
            if (steps[i] > steps[longest]) {
                longest = i;
            }
        }
        if (total != expected) {
            throw new IllegalStateException("the tasks' steps add up to " + total + ", expected " + expected
                    + ": a joined thread's result was not seen");
        }
        System.out.printf("%d short threads: %d Collatz steps in all, the most (%d) for %d%n",
                tasks, total, steps[longest], longest + 1);
    }
}
