package samples.handlers;

import java.util.Arrays;
import samples.KernelTime;

/**
 * Worker threads that die of uncaught exceptions, caught by handlers that record them: the shape of
 * a batch program or server that installs {@code Thread.setDefaultUncaughtExceptionHandler} to log
 * failed workers, with some threads given a handler of their own
 * ({@code setUncaughtExceptionHandler}). Task i fails in one of four ways (an exception it throws,
 * a division by zero, an index out of bounds, an exception class of the program's own) or
 * completes; every fourth task has its own handler, the rest fall to the default one. Handlers
 * only record (thread name, exception class and message, which handler) into shared state; main
 * joins every thread, checks the records against what running each task itself gives, and prints
 * them sorted by thread name, with the completed tasks' results.
 *
 * <p>What it exercises: which handler runs for a thread, that it runs before join returns, and
 * that what it records is visible to main after join.
 *
 * <p>usage: UncaughtHandlers [threads] (default 10)
 */
public final class UncaughtHandlers {
    private UncaughtHandlers() {}

    /** An exception class of the program's own. */
    static final class TaskFailure extends RuntimeException {
        TaskFailure(String message) {
            super(message);
        }
    }

    /** The lines the handlers record, one per thread that died. */
    static final class Log {
        private final String[] lines;
        private int count;

        Log(int capacity) {
            lines = new String[capacity];
        }

        synchronized void record(String line) {
            lines[count++] = line;
        }

        synchronized String[] sorted() {
            String[] copy = Arrays.copyOf(lines, count);
            Arrays.sort(copy);
            return copy;
        }
    }

    /** A handler that records which thread died of what, and that it was the one to catch it. */
    static final class Recorder implements Thread.UncaughtExceptionHandler {
        private final String handler;

        Recorder(String handler) {
            this.handler = handler;
        }

        @Override
        public void uncaughtException(Thread thread, Throwable failure) {
            log.record(line(thread.getName(), failure, handler));
        }
    }

    static Log log;
    static int[] results;

    static String line(String thread, Throwable failure, String handler) {
        return thread + ": " + failure.getClass().getName() + ": " + failure.getMessage() + " (" + handler + ")";
    }

    static String name(int task) {
        return String.format("task-%02d", task);
    }

    static String handlerOf(int task) {
        return task % 4 == 1 ? "own handler" : "default handler";
    }

    /** Task i's work: a result, or one of four failures. */
    static int body(int task) {
        int[] small = {task, task + 1, task + 2};
        switch (task % 5) {
            case 1:
                throw new IllegalStateException("task " + task + " found its input inconsistent");
            case 2:
                return task / (task - task);
            case 3:
                return small[task % 3 + 3];
            case 4:
                throw new TaskFailure("task " + task + " gave up");
            default:
                return task * task + 1;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        log = new Log(threads);
        results = new int[threads];
        Thread.setDefaultUncaughtExceptionHandler(new Recorder("default handler"));
        long kernel = KernelTime.start();
        Thread[] tasks = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int task = t;
            tasks[t] = new Thread(() -> results[task] = body(task), name(t));
            if (handlerOf(t).equals("own handler")) {
                tasks[t].setUncaughtExceptionHandler(new Recorder("own handler"));
            }
            tasks[t].start();
        }
        for (Thread t : tasks) {
            t.join();
        }
        KernelTime.report(kernel);
        // The tasks are over; main's own failure (a check below) must reach stderr, not the log.
        Thread.setDefaultUncaughtExceptionHandler(null);

        String[] recorded = log.sorted();
        String[] expected = new String[threads];
        int failures = 0;
        StringBuilder completed = new StringBuilder();
        for (int t = 0; t < threads; t++) {
            try {
                int result = body(t);
                if (results[t] != result) {
                    throw new IllegalStateException(name(t) + " left " + results[t] + ", expected " + result);
                }
                completed.append(name(t)).append(" completed with ").append(result).append('\n');
            } catch (RuntimeException failure) {
                expected[failures++] = line(name(t), failure, handlerOf(t));
            }
        }
        expected = Arrays.copyOf(expected, failures);
        Arrays.sort(expected);
        if (!Arrays.equals(recorded, expected)) {
            throw new IllegalStateException("the handlers recorded " + Arrays.toString(recorded) + ", expected "
                    + Arrays.toString(expected));
        }
        System.out.print(completed);
        for (String line : recorded) {
            System.out.println(line);
        }
    }
}
