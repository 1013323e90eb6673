package dev.distvm.io;

import java.io.PrintStream;

/**
 * Prints what workers' threads print on the home's standard output and error. A message
 * ({@code SPACE_OUTPUT}) is {@code [stream][the bytes written]}, stream {@link #OUT} or {@link #ERR}.
 */
public final class HomeOutput {
    static final byte OUT = 1;
    static final byte ERR = 2;

    /**
     * Prints on the streams the program has now: one that replaced {@code System.out} before
     * starting its threads gets what they print, as on one JVM (before, what threads on workers
     * printed went to the terminal while the home's threads printed into the program's stream).
     */
    public void write(byte[] message) {
        PrintStream stream = message[0] == ERR ? System.err : System.out;
        stream.write(message, 1, message.length - 1);
        stream.flush();
    }
}
