package perfapp;

import java.lang.reflect.Method;
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
        String first = null;
        double[] millis = new double[runs / 2];
        for (int run = 0; run < runs; run++) {
            MainRun result = MainRun.of(main, programArgs);
            if (first == null) {
                first = result.printed();
            } else if (!result.printed().equals(first)) {
                throw new IllegalStateException("run " + (run + 1) + " printed\n" + result.printed() + "where the first printed\n" + first);
            } else if (run >= runs - millis.length) {
                millis[run - (runs - millis.length)] = result.millis();
            }
        }
        Arrays.sort(millis);
        System.out.print(first);
        System.out.printf("steady_ms %.1f%n", millis[millis.length / 2]);
    }
}
