package mpitest.collectives;

import mpitest.Check;

import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.User_function;

/**
 * Reduce (from every root), Allreduce, Reduce_scatter and Scan with every predefined operation on
 * the types it is defined on, MAXLOC/MINLOC with ties, a commutative user operation on a derived
 * datatype, and non-commutative ones (2x2 matrix product, string concatenation) whose result
 * shows the order of combination. Small and large vectors, so that both the latency and the
 * bandwidth algorithms run. Expected values are computed here by folding the contributions of
 * ranks 0..n-1 in order.
 */
public final class Reductions {
    private static int rank;
    private static int size;

    private static final Op[] OPS = {MPI.MAX, MPI.MIN, MPI.SUM, MPI.PROD, MPI.LAND, MPI.BAND, MPI.LOR, MPI.BOR,
        MPI.LXOR, MPI.BXOR};
    private static final String[] NAMES = {"MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR"};

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        for (int op = 0; op < OPS.length; op++) {
            integral(world, op, 7);
            longs(world, op, 5);
            if (op <= 3) {
                floating(world, op, 6);
            } else if (op == 4 || op == 6 || op == 8) {
                logical(world, op, 6);
            }
        }
        integral(world, 2, 20_000); // 80 KB: ring allreduce / reduce-scatter
        floating(world, 0, 20_000);
        locations(world);
        commutativeUserOp(world);
        matrixProducts(world, 3);
        matrixProducts(world, 5_000); // large, but ordered: must not take the ring
        concatenation(world);
        MPI.Finalize();
    }

    // ---- predefined operations ----------------------------------------------------------------

    private static int intValue(int op, int r, int i) {
        if (op == 3) {
            return (r * 7 + i * 3) % 5 - 2; // small factors: the product of 8 stays exact
        }
        if (op == 4 || op == 6 || op == 8) {
            return (r + i) % 3 == 0 ? 0 : r + i;
        }
        return ((r + 1) * 2654435 + i * 40503) ^ (r << (i % 7));
    }

    private static void integral(Intracomm comm, int op, int count) throws MPIException {
        int[] send = new int[count + 1];
        long[] expected = new long[count];
        for (int i = 0; i < count; i++) {
            send[i + 1] = intValue(op, rank, i);
            expected[i] = intValue(op, 0, i);
            for (int r = 1; r < size; r++) {
                expected[i] = (int) fold(op, expected[i], intValue(op, r, i));
            }
        }
        String what = "INT " + NAMES[op] + " of " + count;
        runAll(comm, OPS[op], MPI.INT, count, send, i -> new int[i], (buf, i) -> ((int[]) buf)[i],
                (r, i) -> {
                    long acc = intValue(op, 0, i);
                    for (int q = 1; q <= r; q++) {
                        acc = (int) fold(op, acc, intValue(op, q, i));
                    }
                    return acc;
                }, expected, what);
    }

    private static void longs(Intracomm comm, int op, int count) throws MPIException {
        long[] send = new long[count + 1];
        long[] expected = new long[count];
        for (int i = 0; i < count; i++) {
            send[i + 1] = longValue(op, rank, i);
            expected[i] = longValue(op, 0, i);
            for (int r = 1; r < size; r++) {
                expected[i] = fold(op, expected[i], longValue(op, r, i));
            }
        }
        runAll(comm, OPS[op], MPI.LONG, count, send, i -> new long[i], (buf, i) -> ((long[]) buf)[i],
                (r, i) -> {
                    long acc = longValue(op, 0, i);
                    for (int q = 1; q <= r; q++) {
                        acc = fold(op, acc, longValue(op, q, i));
                    }
                    return acc;
                }, expected, "LONG " + NAMES[op]);
    }

    private static long longValue(int op, int r, int i) {
        return op == 3 || op == 4 || op == 6 || op == 8 ? intValue(op, r, i) : ((long) intValue(op, r, i) << 21) + r;
    }

    private static void floating(Intracomm comm, int op, int count) throws MPIException {
        double[] send = new double[count + 1];
        long[] expected = new long[count];
        for (int i = 0; i < count; i++) {
            send[i + 1] = doubleValue(op, rank, i);
            double acc = doubleValue(op, 0, i);
            for (int r = 1; r < size; r++) {
                acc = foldDouble(op, acc, doubleValue(op, r, i));
            }
            expected[i] = Double.doubleToLongBits(acc);
        }
        runAll(comm, OPS[op], MPI.DOUBLE, count, send, i -> new double[i],
                (buf, i) -> Double.doubleToLongBits(((double[]) buf)[i]),
                (r, i) -> {
                    double acc = doubleValue(op, 0, i);
                    for (int q = 1; q <= r; q++) {
                        acc = foldDouble(op, acc, doubleValue(op, q, i));
                    }
                    return Double.doubleToLongBits(acc);
                }, expected, "DOUBLE " + NAMES[op] + " of " + count);
    }

    /** Multiples of 1/4 of small size: sums and products are exact, so any order gives the same bits. */
    private static double doubleValue(int op, int r, int i) {
        return ((r * 7 + i * 3) % 11 - 5) * 0.25 + (op == 3 ? 1 : r);
    }

    private static void logical(Intracomm comm, int op, int count) throws MPIException {
        boolean[] send = new boolean[count + 1];
        long[] expected = new long[count];
        for (int i = 0; i < count; i++) {
            send[i + 1] = intValue(op, rank, i) != 0;
            long acc = intValue(op, 0, i) != 0 ? 1 : 0;
            for (int r = 1; r < size; r++) {
                acc = fold(op, acc, intValue(op, r, i));
            }
            expected[i] = acc;
        }
        runAll(comm, OPS[op], MPI.BOOLEAN, count, send, i -> new boolean[i], (buf, i) -> ((boolean[]) buf)[i] ? 1 : 0,
                (r, i) -> {
                    long acc = intValue(op, 0, i) != 0 ? 1 : 0;
                    for (int q = 1; q <= r; q++) {
                        acc = fold(op, acc, intValue(op, q, i));
                    }
                    return acc;
                }, expected, "BOOLEAN " + NAMES[op]);
    }

    /** The reference semantics, written independently of Op. */
    private static long fold(int op, long a, long b) {
        switch (op) {
            case 0: return Math.max(a, b);
            case 1: return Math.min(a, b);
            case 2: return a + b;
            case 3: return a * b;
            case 4: return (a != 0 && b != 0) ? 1 : 0;
            case 5: return a & b;
            case 6: return (a != 0 || b != 0) ? 1 : 0;
            case 7: return a | b;
            case 8: return ((a != 0) ^ (b != 0)) ? 1 : 0;
            case 9: return a ^ b;
            default: throw new IllegalArgumentException("op " + op);
        }
    }

    private static double foldDouble(int op, double a, double b) {
        switch (op) {
            case 0: return Math.max(a, b);
            case 1: return Math.min(a, b);
            case 2: return a + b;
            case 3: return a * b;
            default: throw new IllegalArgumentException("op " + op);
        }
    }

    interface Alloc {
        Object make(int n);
    }

    interface Reader {
        long read(Object buf, int i);
    }

    interface Prefix {
        long upTo(int rank, int i);
    }

    /**
     * Runs Reduce from every root, Allreduce, Reduce_scatter (uneven counts) and Scan on
     * {@code send} (whose data start at offset 1) and checks each against the expected fold.
     */
    private static void runAll(Intracomm comm, Op op, Datatype type, int count, Object send, Alloc alloc, Reader read,
                               Prefix prefix, long[] expected, String what) throws MPIException {
        for (int root = 0; root < size; root++) {
            Object recv = alloc.make(count + 2);
            comm.Reduce(send, 1, recv, 2, count, type, op, root);
            if (rank == root) {
                expect(recv, 2, expected, 0, count, read, what + " Reduce to " + root);
            }
        }
        Object all = alloc.make(count);
        comm.Allreduce(send, 1, all, 0, count, type, op);
        expect(all, 0, expected, 0, count, read, what + " Allreduce");

        int[] counts = new int[size];
        int first = 0;
        int spread = 0;
        for (int i = 0; i < size; i++) {
            // The vector is split unevenly: later ranks get more, some perhaps none.
            counts[i] = (int) ((long) count * (i + 1) / (size * (size + 1L) / 2));
            spread += counts[i];
        }
        counts[size - 1] += count - spread;
        for (int i = 0; i < rank; i++) {
            first += counts[i];
        }
        Object mine = alloc.make(counts[rank] + 1);
        comm.Reduce_scatter(send, 1, mine, 1, counts, type, op);
        expect(mine, 1, expected, first, counts[rank], read, what + " Reduce_scatter");

        Object scanned = alloc.make(count);
        comm.Scan(send, 1, scanned, 0, count, type, op);
        for (int i = 0; i < count; i++) {
            long want = prefix.upTo(rank, i);
            if (read.read(scanned, i) != want) {
                throw new AssertionError(what + " Scan at rank " + rank + ", element " + i + ": got "
                        + read.read(scanned, i) + ", expected " + want);
            }
        }
    }

    private static void expect(Object buf, int offset, long[] expected, int from, int n, Reader read, String what) {
        for (int i = 0; i < n; i++) {
            if (read.read(buf, offset + i) != expected[from + i]) {
                throw new AssertionError(what + ", element " + i + ": got " + read.read(buf, offset + i) + ", expected "
                        + expected[from + i]);
            }
        }
    }

    // ---- MAXLOC / MINLOC ----------------------------------------------------------------------

    /** Values repeat across ranks, so ties occur: the lowest index (rank) must win. */
    private static void locations(Intracomm comm) throws MPIException {
        int count = 4;
        int[] ints = new int[2 * count];
        double[] doubles = new double[2 * count];
        for (int i = 0; i < count; i++) {
            ints[2 * i] = (rank + i) % 3;
            ints[2 * i + 1] = rank;
            doubles[2 * i] = ((rank * 5 + i) % 4) * 0.5;
            doubles[2 * i + 1] = rank;
        }
        for (boolean max : new boolean[] {true, false}) {
            Op op = max ? MPI.MAXLOC : MPI.MINLOC;
            int[] intResult = new int[2 * count];
            double[] doubleResult = new double[2 * count];
            comm.Allreduce(ints, 0, intResult, 0, count, MPI.INT2, op);
            comm.Reduce(doubles, 0, doubleResult, 0, count, MPI.DOUBLE2, op, size - 1);
            for (int i = 0; i < count; i++) {
                int bestInt = 0;
                int bestDouble = 0;
                for (int r = 1; r < size; r++) {
                    int v = (r + i) % 3;
                    int b = (bestInt + i) % 3;
                    if (max ? v > b : v < b) {
                        bestInt = r;
                    }
                    double dv = ((r * 5 + i) % 4) * 0.5;
                    double db = ((bestDouble * 5 + i) % 4) * 0.5;
                    if (max ? dv > db : dv < db) {
                        bestDouble = r;
                    }
                }
                String what = (max ? "MAXLOC" : "MINLOC") + " item " + i;
                Check.equal(new int[] {(bestInt + i) % 3, bestInt}, new int[] {intResult[2 * i], intResult[2 * i + 1]},
                        what + " on INT2");
                if (rank == size - 1) {
                    Check.equal(new double[] {((bestDouble * 5 + i) % 4) * 0.5, bestDouble},
                            new double[] {doubleResult[2 * i], doubleResult[2 * i + 1]}, what + " on DOUBLE2");
                }
            }
        }
    }

    // ---- user-defined operations ----------------------------------------------------------------

    /**
     * A commutative user operation on Contiguous(2, INT) items: (a, b) + (c, d) = (a + c, max(b, d)).
     * The function sees its datatype's layout: item k at offset + 2k.
     */
    private static void commutativeUserOp(Intracomm comm) throws MPIException {
        Datatype pair = Datatype.Contiguous(2, MPI.INT);
        pair.Commit();
        Op sumAndMax = new Op(new User_function() {
            @Override
            public void Call(Object in, int inoffset, Object inout, int inoutoffset, int count, Datatype datatype)
                    throws MPIException {
                int[] a = (int[]) in;
                int[] b = (int[]) inout;
                int extent = datatype.Extent();
                for (int k = 0; k < count; k++) {
                    b[inoutoffset + k * extent] += a[inoffset + k * extent];
                    b[inoutoffset + k * extent + 1] = Math.max(b[inoutoffset + k * extent + 1], a[inoffset + k * extent + 1]);
                }
            }
        }, true);
        Check.that(sumAndMax.Is_commute(), "a commutative Op says so");
        for (int count : new int[] {3, 12_000}) { // 96 KB takes the ring
            int[] send = new int[2 * count];
            for (int k = 0; k < count; k++) {
                send[2 * k] = rank + k;
                send[2 * k + 1] = (rank * 3 + k) % size;
            }
            int[] result = new int[2 * count];
            comm.Allreduce(send, 0, result, 0, count, pair, sumAndMax);
            int[] reduced = new int[2 * count];
            comm.Reduce(send, 0, reduced, 0, count, pair, sumAndMax, 0);
            for (int k = 0; k < count; k++) {
                int max = 0;
                for (int r = 0; r < size; r++) {
                    max = Math.max(max, (r * 3 + k) % size);
                }
                int[] want = {size * (size - 1) / 2 + size * k, max};
                Check.equal(want, new int[] {result[2 * k], result[2 * k + 1]}, "user op Allreduce item " + k);
                if (rank == 0) {
                    Check.equal(want, new int[] {reduced[2 * k], reduced[2 * k + 1]}, "user op Reduce item " + k);
                }
            }
        }
    }

    /** The matrix of rank r for item k: [[1, r + k + 1], [r % 3 + 1, k % 2]]; matrices like these do not commute. */
    private static int[] matrix(int r, int k) {
        return new int[] {1, r + k + 1, r % 3 + 1, k % 2};
    }

    private static int[] times(int[] x, int[] y) {
        return new int[] {
            x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3],
            x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3]};
    }

    /** Products M0 M1 ... in rank order, 4 ints (row-major 2x2) per item; int overflow wraps, which keeps the ring associative. */
    private static void matrixProducts(Intracomm comm, int count) throws MPIException {
        Datatype matrixType = Datatype.Contiguous(4, MPI.INT);
        matrixType.Commit();
        Op product = new Op(new User_function() {
            @Override
            public void Call(Object in, int inoffset, Object inout, int inoutoffset, int n, Datatype datatype) {
                int[] a = (int[]) in;
                int[] b = (int[]) inout;
                for (int k = 0; k < n; k++) {
                    int[] left = Arrays.copyOfRange(a, inoffset + 4 * k, inoffset + 4 * k + 4);
                    int[] right = Arrays.copyOfRange(b, inoutoffset + 4 * k, inoutoffset + 4 * k + 4);
                    System.arraycopy(times(left, right), 0, b, inoutoffset + 4 * k, 4);
                }
            }
        }, false);
        Check.that(!product.Is_commute(), "a non-commutative Op says so");
        int[] send = new int[4 * count];
        for (int k = 0; k < count; k++) {
            System.arraycopy(matrix(rank, k), 0, send, 4 * k, 4);
        }
        int[][] prefix = new int[count][];
        int[][] total = new int[count][];
        for (int k = 0; k < count; k++) {
            int[] acc = matrix(0, k);
            for (int r = 1; r < size; r++) {
                acc = times(acc, matrix(r, k));
                if (r == rank) {
                    prefix[k] = acc;
                }
            }
            if (rank == 0) {
                prefix[k] = matrix(0, k);
            }
            total[k] = acc;
        }
        String what = "matrix product of " + count;
        for (int root = 0; root < size; root++) {
            int[] recv = new int[4 * count];
            comm.Reduce(send, 0, recv, 0, count, matrixType, product, root);
            if (rank == root) {
                expectMatrices(total, recv, 0, count, what + " Reduce to " + root);
            }
        }
        int[] all = new int[4 * count];
        comm.Allreduce(send, 0, all, 0, count, matrixType, product);
        expectMatrices(total, all, 0, count, what + " Allreduce");
        int[] scanned = new int[4 * count];
        comm.Scan(send, 0, scanned, 0, count, matrixType, product);
        expectMatrices(prefix, scanned, 0, count, what + " Scan");
        int[] counts = new int[size];
        int first = 0;
        int assigned = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = Math.min(count - assigned, i % 2 + 1);
            assigned += counts[i];
        }
        counts[size - 1] += count - assigned;
        for (int i = 0; i < rank; i++) {
            first += counts[i];
        }
        int[] mine = new int[4 * counts[rank]];
        comm.Reduce_scatter(send, 0, mine, 0, counts, matrixType, product);
        expectMatrices(total, mine, first, counts[rank], what + " Reduce_scatter");
    }

    private static void expectMatrices(int[][] expected, int[] actual, int from, int n, String what) {
        for (int k = 0; k < n; k++) {
            Check.equal(expected[from + k], Arrays.copyOfRange(actual, 4 * k, 4 * k + 4), what + " item " + (from + k));
        }
    }

    /** String concatenation on MPI.OBJECT: the order of the parts is the order of combination. */
    private static void concatenation(Intracomm comm) throws MPIException {
        Op concat = new Op(new User_function() {
            @Override
            public void Call(Object in, int inoffset, Object inout, int inoutoffset, int count, Datatype datatype) {
                Object[] a = (Object[]) in;
                Object[] b = (Object[]) inout;
                for (int k = 0; k < count; k++) {
                    b[inoutoffset + k] = (String) a[inoffset + k] + b[inoutoffset + k];
                }
            }
        }, false);
        String[] send = {"<" + rank + ">", "[" + rank + "]"};
        StringBuilder angles = new StringBuilder();
        StringBuilder brackets = new StringBuilder();
        String[] prefix = new String[2];
        for (int r = 0; r < size; r++) {
            angles.append('<').append(r).append('>');
            brackets.append('[').append(r).append(']');
            if (r == rank) {
                prefix = new String[] {angles.toString(), brackets.toString()};
            }
        }
        String[] total = {angles.toString(), brackets.toString()};
        for (int root = 0; root < size; root++) {
            String[] recv = new String[2];
            comm.Reduce(send, 0, recv, 0, 2, MPI.OBJECT, concat, root);
            if (rank == root) {
                Check.equal(total, recv, "concatenation Reduce to " + root);
            }
        }
        String[] all = new String[2];
        comm.Allreduce(send, 0, all, 0, 2, MPI.OBJECT, concat);
        Check.equal(total, all, "concatenation Allreduce");
        String[] scanned = new String[2];
        comm.Scan(send, 0, scanned, 0, 2, MPI.OBJECT, concat);
        Check.equal(prefix, scanned, "concatenation Scan");
    }
}
