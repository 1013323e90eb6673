package dev.distvm.objectspace;

import dev.distvm.exit.Exits;
import dev.distvm.report.RunStops;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.WireBuffer;
import java.io.PrintStream;
import java.nio.ByteBuffer;

/**
 * At the home: ends the run because of a node (a worker's request, a {@code System.exit} there or
 * a case dist cannot run coherently, or the home's own failure to serve one), saying why on
 * stderr and in the report.
 */
final class RunEnd {
    private final PrintStream out;
    private final PrintStream err;

    RunEnd(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** A worker's request ({@code SPACE_STOP}): {@code [int status][string why]}. */
    WireBuffer requested(Inbound message) {
        ByteBuffer in = SpaceMessages.body(message);
        endRun(message.sender(), in.getInt(), WireReader.string(in));
        return null;
    }

    /** Ends the run with {@code status} because of {@code node}, saying why (if anything) on stderr and in the report. */
    void endRun(int node, int status, String why) {
        RunStops.record(node, status, why);
        if (!why.isEmpty()) {
            err.println("[dist] error: " + why);
        }
        out.flush();
        err.flush();
        Exits.exitSoon(status, "node " + node + " ended the run with status " + status);
    }
}
