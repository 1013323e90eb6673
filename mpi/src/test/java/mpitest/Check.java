package mpitest;

import java.util.Arrays;
import java.util.Objects;
import mpi.MPIException;

/** Assertions for the MPI test programs, which run without JUnit on each rank's class loader. */
public final class Check {
    private Check() {}

    @FunctionalInterface
    public interface Action {
        void run() throws MPIException;
    }

    public static void equal(Object expected, Object actual, String what) {
        if (!Objects.deepEquals(expected, actual)) {
            throw new AssertionError(what + ": got " + show(actual) + ", expected " + show(expected));
        }
    }

    public static void that(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /** Runs {@code action}, which must fail with an MPIException of {@code errorClass}. */
    public static MPIException fails(int errorClass, String what, Action action) {
        try {
            action.run();
        } catch (MPIException e) {
            if (e.getErrorClass() != errorClass) {
                throw new AssertionError(what + ": error class " + e.getErrorClass() + " (" + e.getMessage()
                        + "), expected " + errorClass, e);
            }
            return e;
        }
        throw new AssertionError(what + ": no MPIException, expected error class " + errorClass);
    }

    private static String show(Object o) {
        if (o instanceof int[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof long[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof double[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof boolean[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof Object[] a) {
            return Arrays.deepToString(a);
        }
        return String.valueOf(o);
    }
}
