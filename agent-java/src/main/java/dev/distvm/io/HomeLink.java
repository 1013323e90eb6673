package dev.distvm.io;

import dev.distvm.transport.WireBuffer;

/**
 * A worker's way to the home for its redirected streams: the object space's connection, so that
 * output travels in order with the thread's other messages (its end above all).
 */
public interface HomeLink {
    /** Sends without waiting; the home handles it after everything this node sent before. */
    void send(int type, WireBuffer body);

    /** Asks the home and waits for the answer as long as the home takes. */
    byte[] call(int type, byte[] body);
}
