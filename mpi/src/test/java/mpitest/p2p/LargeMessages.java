package mpitest.p2p;

import static mpitest.Check.equal;
import static mpitest.Check.fails;
import static mpitest.Check.that;

import java.lang.reflect.Array;
import java.util.Objects;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Messages larger than the socket device's buffers, so that they are written and read in slices
 * whose ends fall inside elements: received by a receive that was posted first (decoded as they
 * arrive) and by one posted after they arrived, in every base type, at offsets, into rows of a
 * multi-dimensional buffer, truncated, mismatched, of derived types and objects, synchronous, both
 * ways at once and from any source.
 */
public final class LargeMessages {
    /** The socket device's buffer size, around which the sizes here are chosen. */
    private static final int SLICE = 256 * 1024;
    private static final Datatype[] BASE_TYPES = {
        MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};
    private static final int[] WIDTHS = {1, 2, 2, 1, 4, 8, 4, 8};

    private LargeMessages() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Comm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;

        for (int t = 0; t < BASE_TYPES.length; t++) {
            int n = 3 * SLICE / WIDTHS[t] + 3;
            postedFirst(world, BASE_TYPES[t], n, rank, next, previous);
            arrivedFirst(world, BASE_TYPES[t], n, rank, next, previous);
        }
        for (int bytes : new int[] {SLICE - 37, SLICE - 36, SLICE - 32, SLICE - 1, SLICE, SLICE + 1, 2 * SLICE + 5}) {
            postedFirst(world, MPI.BYTE, bytes, rank, next, previous);
        }
        fewerThanTheReceiveTakes(world, rank, next, previous);
        rowsOfAMultiDimensionalBuffer(world, rank, next, previous);
        truncatedAndMismatched(world, rank, next, previous);
        derivedTypesAndObjects(world, rank, next, previous);
        synchronous(world, rank, next, previous);
        bothWaysAtOnce(world, rank, next, previous);
        fromAnySource(world, rank, size);
        MPI.Finalize();
    }

    /** The receive is posted before the message is sent (its sender waits for word, tag 1). */
    private static void postedFirst(Comm world, Datatype type, int n, int rank, int next, int previous)
            throws Exception {
        Object out = values(type, n + 3, rank);
        Object in = values(type, n + 9, -1);
        Request receive = world.Irecv(in, 5, n, type, previous, 2);
        handshake(world, next, previous);
        world.Send(out, 3, n, type, next, 2);
        Status status = receive.Wait();
        equal(n, status.Get_count(type), type + " x " + n + " posted first: count");
        same(values(type, n + 3, previous), 3, in, 5, n, type + " x " + n + " posted first");
        same(values(type, n + 9, -1), 0, in, 0, 5, type + " x " + n + " posted first: before the offset");
        same(values(type, n + 9, -1), n + 5, in, n + 5, 4, type + " x " + n + " posted first: after the items");
    }

    /** The message is all here (probed) before its receive is posted. */
    private static void arrivedFirst(Comm world, Datatype type, int n, int rank, int next, int previous)
            throws Exception {
        Object out = values(type, n, rank);
        Request send = world.Isend(out, 0, n, type, next, 3);
        Status probed = world.Probe(previous, 3);
        equal(n, probed.Get_count(type), type + " x " + n + " arrived first: probed count");
        Object in = values(type, n + 1, -1);
        Status status = world.Recv(in, 1, n, type, previous, 3);
        send.Wait();
        equal(n, status.Get_count(type), type + " x " + n + " arrived first: count");
        same(values(type, n, previous), 0, in, 1, n, type + " x " + n + " arrived first");
    }

    private static void fewerThanTheReceiveTakes(Comm world, int rank, int next, int previous) throws Exception {
        int n = SLICE / 4 + 11;
        int[] in = new int[3 * n];
        Request receive = world.Irecv(in, 0, 3 * n, MPI.INT, previous, 4);
        handshake(world, next, previous);
        world.Send(values(MPI.INT, n, rank), 0, n, MPI.INT, next, 4);
        equal(n, receive.Wait().Get_count(MPI.INT), "a shorter message's count");
        same(values(MPI.INT, n, previous), 0, in, 0, n, "a shorter message");
        equal(0, in[n], "past a shorter message");
    }

    /** Items inside one row are decoded into it; items across rows are unpacked as before. */
    private static void rowsOfAMultiDimensionalBuffer(Comm world, int rank, int next, int previous) throws Exception {
        int row = SLICE / 8 + 100;
        double[][] in = new double[3][row];
        Request withinRow = world.Irecv(in, row + 7, row - 7, MPI.DOUBLE, previous, 5);
        handshake(world, next, previous);
        double[] out = (double[]) values(MPI.DOUBLE, 2 * row, rank);
        world.Send(out, 0, row - 7, MPI.DOUBLE, next, 5);
        withinRow.Wait();
        same(values(MPI.DOUBLE, row - 7, previous), 0, in[1], 7, row - 7, "items within a row");

        Request acrossRows = world.Irecv(in, 10, 2 * row, MPI.DOUBLE, previous, 6);
        handshake(world, next, previous);
        world.Send(out, 0, 2 * row, MPI.DOUBLE, next, 6);
        acrossRows.Wait();
        double[] expected = (double[]) values(MPI.DOUBLE, 2 * row, previous);
        same(expected, 0, in[0], 10, row - 10, "items across rows, first row");
        same(expected, row - 10, in[1], 0, row, "items across rows, second row");
        same(expected, 2 * row - 10, in[2], 0, 10, "items across rows, third row");
    }

    private static void truncatedAndMismatched(Comm world, int rank, int next, int previous) throws Exception {
        int n = SLICE / 8 + 5;
        Request tooShort = world.Irecv(new long[n], 0, n - 1, MPI.LONG, previous, 7);
        handshake(world, next, previous);
        world.Send(values(MPI.LONG, n, rank), 0, n, MPI.LONG, next, 7);
        fails(MPI.ERR_TRUNCATE, "a large message longer than its posted receive", tooShort::Wait);

        Request otherType = world.Irecv(new int[2 * n], 0, 2 * n, MPI.INT, previous, 8);
        handshake(world, next, previous);
        world.Send(values(MPI.LONG, n, rank), 0, n, MPI.LONG, next, 8);
        fails(MPI.ERR_TYPE, "a large message of another base type", otherType::Wait);

        // a PACKED receive takes the bytes of any message
        byte[] packed = new byte[8 * n + 5];
        Request anyBytes = world.Irecv(packed, 0, packed.length, MPI.PACKED, previous, 9);
        handshake(world, next, previous);
        world.Send(values(MPI.LONG, n, rank), 0, n, MPI.LONG, next, 9);
        equal(8 * n, anyBytes.Wait().Get_count(MPI.PACKED), "a PACKED receive of longs: byte count");
        long[] unpacked = new long[n];
        world.Unpack(packed, 0, unpacked, 0, n, MPI.LONG);
        same(values(MPI.LONG, n, previous), 0, unpacked, 0, n, "a PACKED receive of longs");
    }

    private static void derivedTypesAndObjects(Comm world, int rank, int next, int previous) throws Exception {
        Datatype everyOther = Datatype.Vector(SLICE / 4, 1, 2, MPI.INT);
        everyOther.Commit();
        int[] out = (int[]) values(MPI.INT, SLICE / 2, rank);
        int[] in = new int[SLICE / 2];
        Request receive = world.Irecv(in, 1, 1, everyOther, previous, 10);
        handshake(world, next, previous);
        world.Send(out, 0, 1, everyOther, next, 10);
        receive.Wait();
        int[] expected = (int[]) values(MPI.INT, SLICE / 2, previous);
        for (int i = 0; i < SLICE / 4; i++) {
            if (in[1 + 2 * i] != expected[2 * i] || in[2 * i] != 0) {
                throw new AssertionError("vector element " + i + ": got " + in[1 + 2 * i] + ", expected " + expected[2 * i]);
            }
        }

        String[] strings = new String[20_000];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = "rank " + rank + " string " + i + " " + "x".repeat(i % 40);
        }
        String[] got = new String[strings.length];
        Request objects = world.Irecv(got, 0, got.length, MPI.OBJECT, previous, 11);
        handshake(world, next, previous);
        world.Send(strings, 0, strings.length, MPI.OBJECT, next, 11);
        objects.Wait();
        for (int i = 0; i < got.length; i++) {
            equal("rank " + previous + " string " + i + " " + "x".repeat(i % 40), got[i], "object " + i);
        }
    }

    /** A large synchronous send completes only once its receive is posted, and then does. */
    private static void synchronous(Comm world, int rank, int next, int previous) throws Exception {
        int n = 2 * SLICE + 3;
        byte[] in = new byte[n];
        SynchronousSend.around(world, values(MPI.BYTE, n, rank), in, n, MPI.BYTE, next, previous, 12);
        same(values(MPI.BYTE, n, previous), 0, in, 0, n, "a large synchronous message");
    }

    /** Every rank sends a large message to the next while receiving one from the previous. */
    private static void bothWaysAtOnce(Comm world, int rank, int next, int previous) throws Exception {
        int n = 4 * SLICE / 8 + 1;
        double[] in = new double[n];
        world.Sendrecv(values(MPI.DOUBLE, n, rank), 0, n, MPI.DOUBLE, next, 14, in, 0, n, MPI.DOUBLE, previous, 14);
        same(values(MPI.DOUBLE, n, previous), 0, in, 0, n, "sendrecv");

        long[] replaced = (long[]) values(MPI.LONG, n, rank);
        world.Sendrecv_replace(replaced, 0, n, MPI.LONG, next, 15, previous, 15);
        same(values(MPI.LONG, n, previous), 0, replaced, 0, n, "sendrecv_replace");
    }

    /** Rank 0 takes one large message from every other rank, whichever comes first. */
    private static void fromAnySource(Comm world, int rank, int size) throws Exception {
        int n = SLICE / 2 + 7;
        if (rank == 0) {
            boolean[] seen = new boolean[size];
            for (int i = 1; i < size; i++) {
                int[] in = new int[n];
                Status status = world.Recv(in, 0, n, MPI.INT, MPI.ANY_SOURCE, 16);
                that(!seen[status.source], "each source once");
                seen[status.source] = true;
                same(values(MPI.INT, n, status.source), 0, in, 0, n, "from any source, rank " + status.source);
            }
        } else {
            world.Send(values(MPI.INT, n, rank), 0, n, MPI.INT, 0, 16);
        }
    }

    /** Tells the previous rank that this one's receive is posted and waits for the next one's word. */
    private static void handshake(Comm world, int next, int previous) throws Exception {
        world.Send(new int[0], 0, 0, MPI.INT, previous, 1);
        world.Recv(new int[0], 0, 0, MPI.INT, next, 1);
    }

    /** {@code n} values of {@code type}'s base type that differ by index and by {@code sender} (-1: all zero). */
    private static Object values(Datatype type, int n, int sender) {
        Object a = Array.newInstance(type == MPI.BOOLEAN ? boolean.class : type == MPI.CHAR ? char.class
                : type == MPI.SHORT ? short.class : type == MPI.INT ? int.class : type == MPI.LONG ? long.class
                : type == MPI.FLOAT ? float.class : type == MPI.DOUBLE ? double.class : byte.class, n);
        if (sender < 0) {
            return a;
        }
        for (int i = 0; i < n; i++) {
            long v = 1_000_003L * sender + 7L * i + 1;
            Object value;
            if (a instanceof boolean[]) {
                value = v % 3 == 0;
            } else if (a instanceof char[]) {
                value = (char) v;
            } else if (a instanceof short[]) {
                value = (short) v;
            } else if (a instanceof int[]) {
                value = (int) v;
            } else if (a instanceof long[]) {
                value = v << 20 | i;
            } else if (a instanceof float[]) {
                value = (float) v / 4;
            } else if (a instanceof double[]) {
                value = v / 3.0;
            } else {
                value = (byte) v;
            }
            Array.set(a, i, value);
        }
        return a;
    }

    private static void same(Object expected, int from, Object actual, int at, int n, String what) {
        for (int i = 0; i < n; i++) {
            Object e = Array.get(expected, from + i);
            Object a = Array.get(actual, at + i);
            if (!Objects.equals(e, a)) {
                throw new AssertionError(what + ": element " + i + " is " + a + ", expected " + e);
            }
        }
    }
}
