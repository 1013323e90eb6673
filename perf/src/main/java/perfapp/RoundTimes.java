package perfapp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A long-running program to attach to: runs a program's {@code main} round after round until its
 * standard input ends, printing {@code round_ms T} after each (what the program prints is kept; a
 * round that prints anything other than the first round did stops this with an error, so that a
 * profiler attached meanwhile cannot change the results unseen).
 *
 * <p>usage: RoundTimes MainClass [args...]
 */
public final class RoundTimes {
    private static volatile boolean inputEnded;

    private RoundTimes() {}

    public static void main(String[] args) throws Exception {
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        String[] programArgs = Arrays.copyOfRange(args, 1, args.length);
        Thread input = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // only the end matters
                }
            } catch (IOException ignored) {
                // an input that fails has ended too
            }
            inputEnded = true;
        }, "input");
        input.setDaemon(true);
        input.start();
        PrintStream out = System.out;
        String first = null;
        while (!inputEnded) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            long start = System.nanoTime();
            try {
                main.invoke(null, (Object) programArgs);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            } finally {
                System.setOut(out);
            }
            double millis = (System.nanoTime() - start) / 1e6;
            String text = printed.toString(StandardCharsets.UTF_8);
            if (first == null) {
                first = text;
            } else if (!text.equals(first)) {
                throw new IllegalStateException("a round printed\n" + text + "where the first printed\n" + first);
            }
            out.printf("round_ms %.1f%n", millis);
        }
    }
}
