package itapp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Application code that the integration tests run on a worker, which has never seen it. */
public final class RemoteWork {
    private RemoteWork() {}

    /** Where it ran, which loader defined it, and a value computed by another application class and a resource. */
    public static String describe() throws IOException {
        String greeting;
        try (InputStream in = RemoteWork.class.getResourceAsStream("/itapp/greeting.txt")) {
            greeting = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        return "pid=" + ProcessHandle.current().pid()
                + " loader=" + RemoteWork.class.getClassLoader().getName()
                + " sum=" + Helper.sumOfSquares(10)
                + " greeting=" + greeting;
    }

    /** Touches a class that exists at compile time but not on the run's class path. */
    public static String touchGone() {
        return Gone.name();
    }

    public static String echo(String a, String b) {
        return a + "+" + b;
    }
}
