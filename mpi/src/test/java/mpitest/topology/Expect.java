package mpitest.topology;

import java.util.Arrays;
import mpi.MPIException;

/** Self-checks for the topology programs; each rank has its own copy (its own class loader), so {@link #who} is per rank. */
final class Expect {
    /** Names the rank in failure messages. */
    static String who = "?";

    private Expect() {}

    interface MpiCall {
        void run() throws MPIException;
    }

    static void that(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(who + ": " + what);
        }
    }

    static void equal(long expected, long actual, String what) {
        that(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    static void equal(int[] expected, int[] actual, String what) {
        that(Arrays.equals(expected, actual), what + ": expected " + Arrays.toString(expected) + ", got " + Arrays.toString(actual));
    }

    static void equal(boolean[] expected, boolean[] actual, String what) {
        that(Arrays.equals(expected, actual), what + ": expected " + Arrays.toString(expected) + ", got " + Arrays.toString(actual));
    }

    /** The call must fail with an MPIException of {@code errorClass}. */
    static void error(int errorClass, String what, MpiCall call) {
        try {
            call.run();
        } catch (MPIException e) {
            that(e.getErrorClass() == errorClass, what + ": expected error class " + errorClass + ", got "
                    + e.getErrorClass() + " (" + e.getMessage() + ")");
            return;
        }
        throw new AssertionError(who + ": " + what + ": expected error class " + errorClass + " but the call succeeded");
    }
}
