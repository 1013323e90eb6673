package perfapp;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Runs a program's {@code main} several times in one JVM, to time its kernel once the JIT has
 * compiled it: prints what the first run printed (every run must print the same, or this fails),
 * then {@code steady_ms} and the median time of the second half of the runs (the first half
 * warms up: the JIT's decisions settle over the first few runs, the second alone is often still
 * slower by half).
 *
 * <p>usage: Repeat RUNS MainClass [args...]
 */
public final class Repeat {
    private Repeat() {}

    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[0]);
        if (runs < 2) {
            throw new IllegalArgumentException("Repeat needs at least 2 runs: the first half warms up");
        }
        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        String[] programArgs = Arrays.copyOfRange(args, 2, args.length);
        PrintStream out = System.out;
        String first = null;
        double[] millis = new double[runs / 2];
        for (int run = 0; run < runs; run++) {
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
            double elapsed = (System.nanoTime() - start) / 1e6;
            String text = printed.toString(StandardCharsets.UTF_8);
            if (first == null) {
                first = text;
            } else if (!text.equals(first)) {
                throw new IllegalStateException("run " + (run + 1) + " printed\n" + text + "where the first printed\n" + first);
            } else if (run >= runs - millis.length) {
                millis[run - (runs - millis.length)] = elapsed;
            }
        }
        Arrays.sort(millis);
        out.print(first);
        out.printf("steady_ms %.1f%n", millis[millis.length / 2]);
    }
}
