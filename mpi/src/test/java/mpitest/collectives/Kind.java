package mpitest.collectives;

import java.util.Objects;
import mpi.Datatype;
import mpi.MPI;

/**
 * The element kinds the collective programs run on: each makes buffers, stores a value derived
 * from an int, and reads back what it stored, so one test body serves every kind.
 */
enum Kind {
    INT {
        @Override
        Datatype type() {
            return MPI.INT;
        }

        @Override
        Object allocate(int n) {
            return new int[n];
        }

        @Override
        void put(Object buf, int i, int v) {
            ((int[]) buf)[i] = v;
        }

        @Override
        Object get(Object buf, int i) {
            return ((int[]) buf)[i];
        }

        @Override
        Object value(int v) {
            return v;
        }
    },
    DOUBLE {
        @Override
        Datatype type() {
            return MPI.DOUBLE;
        }

        @Override
        Object allocate(int n) {
            return new double[n];
        }

        @Override
        void put(Object buf, int i, int v) {
            ((double[]) buf)[i] = v + 0.5;
        }

        @Override
        Object get(Object buf, int i) {
            return ((double[]) buf)[i];
        }

        @Override
        Object value(int v) {
            return v + 0.5;
        }
    },
    OBJECT {
        @Override
        Datatype type() {
            return MPI.OBJECT;
        }

        @Override
        Object allocate(int n) {
            return new String[n];
        }

        @Override
        void put(Object buf, int i, int v) {
            ((String[]) buf)[i] = "o" + v;
        }

        @Override
        Object get(Object buf, int i) {
            return ((String[]) buf)[i];
        }

        @Override
        Object value(int v) {
            return "o" + v;
        }
    };

    /** Marks buffer slots that a collective must not touch. */
    static final int UNTOUCHED = -77;

    abstract Datatype type();

    /** A buffer of {@code n} elements, each {@link #UNTOUCHED}. */
    Object buffer(int n) {
        Object buf = allocate(n);
        for (int i = 0; i < n; i++) {
            put(buf, i, UNTOUCHED);
        }
        return buf;
    }

    abstract Object allocate(int n);

    abstract void put(Object buf, int i, int v);

    abstract Object get(Object buf, int i);

    /** What {@link #get} returns after {@code put(buf, i, v)}. */
    abstract Object value(int v);

    /** Fails unless element {@code i} of {@code buf} holds {@code v}. */
    void expect(Object buf, int i, int v, String what) {
        Object actual = get(buf, i);
        if (!Objects.equals(value(v), actual)) {
            throw new AssertionError(what + ": " + this + " element " + i + " is " + actual + ", expected " + value(v));
        }
    }
}
