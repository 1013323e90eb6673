package perfapp;

import java.lang.instrument.Instrumentation;

/** A Java agent that does nothing: what any {@code -javaagent} costs a JVM's start, dist's own work apart. */
public final class NoOpAgent {
    private NoOpAgent() {}

    public static void premain(String arguments, Instrumentation instrumentation) {
        // nothing: the start-up benchmark's floor
    }
}
