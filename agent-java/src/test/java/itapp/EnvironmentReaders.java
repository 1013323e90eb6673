package itapp;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Threads configured by system properties, as programs are: one given with -D on the command
 * line, one main sets before starting them; and a thread that sets one main reads after join. And
 * threads formatting numbers and naming the time zone after main set the defaults, and reading the
 * class path (the program's, not the worker's), and printing
 * into the stream main put in place of System.out; a thread renaming itself; and the stack trace of
 * an exception a thread caught.
 */
public final class EnvironmentReaders {
    private EnvironmentReaders() {}

    /** A thread of a Thread subclass: on one JVM its stack starts with its own run. */
    static final class Tracer extends Thread {
        private final int number;
        private String trace;

        Tracer(int number) {
            super("tracer-" + number);
            this.number = number;
        }

        @Override
        public void run() {
            StringBuilder own = new StringBuilder(" | its own stack:");
            for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
                own.append(' ').append(frame.getClassName()).append('.').append(frame.getMethodName());
            }
            trace = traceOfAFailure(10 + number) + own;
        }
    }

    /** The frames of an exception the thread caught, as a program that prints its stack trace sees them. */
    private static String traceOfAFailure(int thread) {
        try {
            throw new IllegalStateException("thread " + thread);
        } catch (IllegalStateException e) {
            StringBuilder frames = new StringBuilder(e.getMessage());
            for (StackTraceElement frame : e.getStackTrace()) {
                frames.append(" <- ").append(frame.getClassName()).append('.').append(frame.getMethodName());
            }
            return frames.toString();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        System.setProperty("itapp.mode", "fast");
        Locale.setDefault(Locale.GERMANY);
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        PrintStream terminal = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true));
        String classPath = System.getProperty("java.class.path");
        String[] seen = new String[4];
        String[] traces = new String[seen.length];
        Thread[] threads = new Thread[seen.length];
        for (int t = 0; t < threads.length; t++) {
            int mine = t;
            threads[t] = new Thread(() -> {
                long spin = 0;
                for (int i = 0; i < 3_000_000; i++) {
                    spin += i % 3;
                }
                seen[mine] = Integer.getInteger("itapp.size", 100) + "/" + System.getProperty("itapp.mode") + "/" + spin % 2
                        + String.format(" %.2f %s", 3.25 + mine, TimeZone.getDefault().getID())
                        + (classPath.equals(System.getProperty("java.class.path")) ? "" : " class path " + System.getProperty("java.class.path"));
                System.out.println("printed by thread " + mine);
                traces[mine] = traceOfAFailure(mine);
                if (mine == 2) {
                    Thread.currentThread().setName("reader-2, renamed by itself");
                }
                if (mine == 0) {
                    System.setProperty("itapp.result", "set by thread " + mine);
                }
            }, "reader-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.setOut(terminal);
        String[] lines = captured.toString().trim().split("\n");
        Arrays.sort(lines);
        System.out.println("captured " + String.join(", ", lines));
        System.out.println(Arrays.toString(seen));
        StringBuilder names = new StringBuilder("names");
        for (Thread t : threads) {
            names.append(" | ").append(t.getName());
        }
        System.out.println(names);
        for (String trace : traces) {
            System.out.println(trace);
        }
        System.out.println(System.getProperty("itapp.result"));
        Tracer[] tracers = {new Tracer(0), new Tracer(1)};
        for (Tracer tracer : tracers) {
            tracer.start();
        }
        for (Tracer tracer : tracers) {
            tracer.join();
            System.out.println(tracer.trace);
        }
    }
}
