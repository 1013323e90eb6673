package mpitest.p2p;

/** Assertions for MPI test programs, which run as ranks and must fail loudly with their rank. */
final class Check {
    private Check() {}

    static void equal(Object expected, Object actual, String what) {
        if (!java.util.Objects.equals(expected, actual)) {
            throw new AssertionError(what + ": expected " + expected + " but was " + actual);
        }
    }

    static void that(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** Runs {@code call}, which must fail with an MPIException of {@code errorClass}. */
    static void fails(int errorClass, ThrowingRunnable call, String what) throws Exception {
        try {
            call.run();
        } catch (mpi.MPIException e) {
            equal(errorClass, e.getErrorClass(), what + " (error class; message: " + e.getMessage() + ")");
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
