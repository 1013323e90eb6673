package perfapp;

import java.io.IOException;
import java.lang.reflect.Method;
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
        String first = null;
        while (!inputEnded) {
            MainRun round = MainRun.of(main, programArgs);
            if (first == null) {
                first = round.printed();
            } else if (!round.printed().equals(first)) {
                throw new IllegalStateException("a round printed\n" + round.printed() + "where the first printed\n" + first);
            }
            System.out.printf("round_ms %.1f%n", round.millis());
        }
    }
}
