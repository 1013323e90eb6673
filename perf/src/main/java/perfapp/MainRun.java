package perfapp;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/** One call of a program's {@code main} in this JVM: what it printed and how long it took. */
record MainRun(String printed, double millis) {
    /** Calls {@code main} with standard output captured (and then restored), rethrowing what it threw. */
    static MainRun of(Method main, String[] args) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        long start = System.nanoTime();
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            System.setOut(out);
        }
        return new MainRun(printed.toString(StandardCharsets.UTF_8), (System.nanoTime() - start) / 1e6);
    }
}
