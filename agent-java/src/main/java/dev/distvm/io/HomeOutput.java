package dev.distvm.io;

import java.io.PrintStream;

/**
 * Prints what workers' threads print on the home's standard output and error. A message
 * ({@code SPACE_OUTPUT}) is {@code [stream][the bytes written]}, stream {@link #OUT} or {@link #ERR}.
 */
public final class HomeOutput {
    static final byte OUT = 1;
    static final byte ERR = 2;

    private final PrintStream out;
    private final PrintStream err;

    /** The streams the home had when the object space started: a placed thread's output goes there. */
    public HomeOutput(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public void write(byte[] message) {
        PrintStream stream = message[0] == ERR ? err : out;
        stream.write(message, 1, message.length - 1);
        stream.flush();
    }
}
