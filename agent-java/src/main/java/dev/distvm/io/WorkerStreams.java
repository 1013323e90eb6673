package dev.distvm.io;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A worker's {@code System.out}, {@code System.err} and {@code System.in} are the home's. */
public final class WorkerStreams {
    private WorkerStreams() {}

    public static void redirect(HomeLink home) {
        System.setOut(new PrintStream(new RemoteOutput(home, HomeOutput.OUT), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RemoteOutput(home, HomeOutput.ERR), true, StandardCharsets.UTF_8));
        System.setIn(new RemoteInput(home));
    }
}
