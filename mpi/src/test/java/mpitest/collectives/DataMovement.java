package mpitest.collectives;

import mpitest.Check;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Barrier, Bcast, Gather(v), Scatter(v), Allgather(v) and Alltoall(v) on INT, DOUBLE and OBJECT,
 * from every root, with offsets, sentinels around the blocks (nothing else may be written),
 * uneven and zero counts, derived datatypes on one side, multi-dimensional buffers, and a few
 * large messages. Values encode (sender, receiver, position), so a misplaced block is caught.
 */
public final class DataMovement {
    private static int rank;
    private static int size;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        for (int i = 0; i < 3; i++) {
            world.Barrier();
        }
        for (Kind kind : Kind.values()) {
            for (int root = 0; root < size; root++) {
                bcast(world, kind, root);
                gather(world, kind, root);
                gatherv(world, kind, root);
                scatter(world, kind, root);
                scatterv(world, kind, root);
            }
            allgather(world, kind);
            allgatherv(world, kind);
            alltoall(world, kind);
            alltoallv(world, kind);
        }
        derivedTypes(world);
        largeMessages(world);
        world.Barrier();
        MPI.Finalize();
    }

    private static void bcast(Intracomm comm, Kind kind, int root) throws MPIException {
        Object buf = kind.buffer(9);
        if (rank == root) {
            for (int i = 0; i < 5; i++) {
                kind.put(buf, 2 + i, root * 100 + i);
            }
        }
        comm.Bcast(buf, 2, 5, kind.type(), root);
        for (int i = 0; i < 9; i++) {
            kind.expect(buf, i, i >= 2 && i < 7 ? root * 100 + i - 2 : Kind.UNTOUCHED, "Bcast from " + root);
        }
    }

    private static void gather(Intracomm comm, Kind kind, int root) throws MPIException {
        Object send = kind.buffer(4);
        kind.put(send, 1, rank * 10);
        kind.put(send, 2, rank * 10 + 1);
        Object recv = rank == root ? kind.buffer(2 * size + 3) : null; // ignored away from the root
        comm.Gather(send, 1, 2, kind.type(), recv, 1, 2, kind.type(), root);
        if (rank == root) {
            for (int i = 0; i < 2 * size + 3; i++) {
                int block = (i - 1) / 2;
                kind.expect(recv, i, i >= 1 && i < 2 * size + 1 ? block * 10 + (i - 1) % 2 : Kind.UNTOUCHED, "Gather to " + root);
            }
        }
    }

    /** Rank i contributes i % 3 items (some none); blocks are placed in reverse rank order with a gap of one. */
    private static void gatherv(Intracomm comm, Kind kind, int root) throws MPIException {
        int[] counts = new int[size];
        int[] displs = new int[size];
        int end = reverseLayout(counts, displs);
        Object send = kind.buffer(counts[rank]);
        for (int k = 0; k < counts[rank]; k++) {
            kind.put(send, k, rank * 10 + k);
        }
        Object recv = rank == root ? kind.buffer(end + 2) : null;
        comm.Gatherv(send, 0, counts[rank], kind.type(), recv, 2, rank == root ? counts : null,
                rank == root ? displs : null, kind.type(), root);
        if (rank == root) {
            expectReverseLayout(kind, recv, 2, counts, displs, end, i -> i * 10, "Gatherv to " + root);
        }
    }

    private static void scatter(Intracomm comm, Kind kind, int root) throws MPIException {
        Object send = null;
        if (rank == root) {
            send = kind.buffer(3 * size + 1);
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < 3; k++) {
                    kind.put(send, 1 + 3 * i + k, root * 1000 + i * 10 + k);
                }
            }
        }
        Object recv = kind.buffer(5);
        comm.Scatter(send, 1, 3, kind.type(), recv, 1, 3, kind.type(), root);
        for (int i = 0; i < 5; i++) {
            kind.expect(recv, i, i >= 1 && i < 4 ? root * 1000 + rank * 10 + i - 1 : Kind.UNTOUCHED, "Scatter from " + root);
        }
    }

    private static void scatterv(Intracomm comm, Kind kind, int root) throws MPIException {
        int[] counts = new int[size];
        int[] displs = new int[size];
        int end = reverseLayout(counts, displs);
        Object send = null;
        if (rank == root) {
            send = kind.buffer(end);
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < counts[i]; k++) {
                    kind.put(send, displs[i] + k, root * 1000 + i * 10 + k);
                }
            }
        }
        Object recv = kind.buffer(counts[rank] + 2);
        comm.Scatterv(send, 0, rank == root ? counts : null, rank == root ? displs : null, kind.type(),
                recv, 1, counts[rank], kind.type(), root);
        for (int i = 0; i < counts[rank] + 2; i++) {
            kind.expect(recv, i, i >= 1 && i <= counts[rank] ? root * 1000 + rank * 10 + i - 1 : Kind.UNTOUCHED,
                    "Scatterv from " + root);
        }
    }

    private static void allgather(Intracomm comm, Kind kind) throws MPIException {
        Object send = kind.buffer(2);
        kind.put(send, 0, rank * 10);
        kind.put(send, 1, rank * 10 + 1);
        Object recv = kind.buffer(2 * size + 1);
        comm.Allgather(send, 0, 2, kind.type(), recv, 1, 2, kind.type());
        kind.expect(recv, 0, Kind.UNTOUCHED, "Allgather");
        for (int i = 0; i < 2 * size; i++) {
            kind.expect(recv, 1 + i, (i / 2) * 10 + i % 2, "Allgather");
        }
    }

    private static void allgatherv(Intracomm comm, Kind kind) throws MPIException {
        int[] counts = new int[size];
        int[] displs = new int[size];
        int end = reverseLayout(counts, displs);
        Object send = kind.buffer(counts[rank] + 1);
        for (int k = 0; k < counts[rank]; k++) {
            kind.put(send, 1 + k, rank * 10 + k);
        }
        Object recv = kind.buffer(end + 1);
        comm.Allgatherv(send, 1, counts[rank], kind.type(), recv, 1, counts, displs, kind.type());
        expectReverseLayout(kind, recv, 1, counts, displs, end, i -> i * 10, "Allgatherv");
    }

    private static void alltoall(Intracomm comm, Kind kind) throws MPIException {
        Object send = kind.buffer(2 * size);
        for (int to = 0; to < size; to++) {
            kind.put(send, 2 * to, rank * 100 + to * 10);
            kind.put(send, 2 * to + 1, rank * 100 + to * 10 + 1);
        }
        Object recv = kind.buffer(2 * size + 2);
        comm.Alltoall(send, 0, 2, kind.type(), recv, 2, 2, kind.type());
        kind.expect(recv, 0, Kind.UNTOUCHED, "Alltoall");
        kind.expect(recv, 1, Kind.UNTOUCHED, "Alltoall");
        for (int from = 0; from < size; from++) {
            kind.expect(recv, 2 + 2 * from, from * 100 + rank * 10, "Alltoall from " + from);
            kind.expect(recv, 3 + 2 * from, from * 100 + rank * 10 + 1, "Alltoall from " + from);
        }
    }

    /** Rank r sends (r + j) % 3 items to j, laid out back to front on both sides. */
    private static void alltoallv(Intracomm comm, Kind kind) throws MPIException {
        int[] sendCounts = new int[size];
        int[] recvCounts = new int[size];
        int[] sdispls = new int[size];
        int[] rdispls = new int[size];
        int sendEnd = 0;
        int recvEnd = 0;
        for (int j = size - 1; j >= 0; j--) {
            sendCounts[j] = (rank + j) % 3;
            recvCounts[j] = (j + rank) % 3;
            sdispls[j] = sendEnd;
            rdispls[j] = recvEnd;
            sendEnd += sendCounts[j];
            recvEnd += recvCounts[j] + 1;
        }
        Object send = kind.buffer(sendEnd);
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < sendCounts[j]; k++) {
                kind.put(send, sdispls[j] + k, rank * 100 + j * 10 + k);
            }
        }
        Object recv = kind.buffer(recvEnd);
        comm.Alltoallv(send, 0, sendCounts, sdispls, kind.type(), recv, 0, recvCounts, rdispls, kind.type());
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < recvCounts[i]; k++) {
                kind.expect(recv, rdispls[i] + k, i * 100 + rank * 10 + k, "Alltoallv from " + i);
            }
            kind.expect(recv, rdispls[i] + recvCounts[i], Kind.UNTOUCHED, "Alltoallv gap after " + i);
        }
    }

    /** Derived types on one side of a collective, and a multi-dimensional buffer. */
    private static void derivedTypes(Intracomm comm) throws MPIException {
        // A column of a 3x4 row-major matrix, broadcast in place.
        Datatype column = Datatype.Vector(3, 1, 4, MPI.INT);
        column.Commit();
        int[] matrix = new int[12];
        if (rank == 0) {
            for (int i = 0; i < 12; i++) {
                matrix[i] = 100 + i;
            }
        }
        comm.Bcast(matrix, 1, 1, column, 0);
        for (int i = 0; i < 12; i++) {
            Check.equal(rank == 0 || i % 4 == 1 ? 100 + i : 0, matrix[i], "Bcast of a column, element " + i);
        }

        // Pairs sent as Contiguous(2, INT), received as plain INT.
        Datatype pair = Datatype.Contiguous(2, MPI.INT);
        pair.Commit();
        int[] mine = {rank, -rank};
        int[] all = new int[2 * size];
        comm.Allgather(mine, 0, 1, pair, all, 0, 2, MPI.INT);
        for (int i = 0; i < size; i++) {
            Check.equal(new int[] {i, -i}, new int[] {all[2 * i], all[2 * i + 1]}, "Allgather of pairs from " + i);
        }
        int[] gathered = new int[2 * size];
        comm.Gather(mine, 0, 2, MPI.INT, gathered, 0, 1, pair, size - 1);
        if (rank == size - 1) {
            Check.equal(all, gathered, "Gather into pairs");
        }

        // Every other element of the root's buffer scattered, received contiguous.
        Datatype strided = Datatype.Vector(2, 1, 2, MPI.INT);
        strided.Commit();
        int[] source = new int[4 * size];
        for (int i = 0; i < source.length; i++) {
            source[i] = i;
        }
        int[] got = new int[2];
        comm.Scatter(source, 0, 1, strided, got, 0, 2, MPI.INT, 0);
        // Item i of the strided type starts i extents (3 elements) in: elements 3i and 3i + 2.
        Check.equal(new int[] {3 * rank, 3 * rank + 2}, got, "Scatter of strided items");

        // A 2-D array is one row-major buffer.
        int[][] grid = new int[3][4];
        if (rank == size / 2) {
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 4; c++) {
                    grid[r][c] = r * 4 + c + 1;
                }
            }
        }
        comm.Bcast(grid, 2, 8, MPI.INT, size / 2);
        for (int i = 0; i < 12; i++) {
            int expected = i >= 2 && i < 10 || rank == size / 2 ? i + 1 : 0;
            Check.equal(expected, grid[i / 4][i % 4], "Bcast of int[3][4], element " + i);
        }
    }

    private static void largeMessages(Intracomm comm) throws MPIException {
        int n = 150_000;
        double[] big = new double[n];
        if (rank == size - 1) {
            for (int i = 0; i < n; i++) {
                big[i] = i * 0.5;
            }
        }
        comm.Bcast(big, 0, n, MPI.DOUBLE, size - 1);
        for (int i = 0; i < n; i += 997) {
            Check.equal(i * 0.5, big[i], "large Bcast element " + i);
        }
        Check.equal((n - 1) * 0.5, big[n - 1], "large Bcast last element");

        int m = 20_000;
        int[] send = new int[m];
        for (int i = 0; i < m; i++) {
            send[i] = rank * m + i;
        }
        int[] all = new int[m * size];
        comm.Allgather(send, 0, m, MPI.INT, all, 0, m, MPI.INT);
        for (int i = 0; i < all.length; i++) {
            if (all[i] != i) {
                throw new AssertionError("large Allgather element " + i + " is " + all[i]);
            }
        }
        int[] gathered = new int[m * size];
        comm.Gather(send, 0, m, MPI.INT, gathered, 0, m, MPI.INT, 1 % size);
        if (rank == 1 % size) {
            Check.equal(all, gathered, "large Gather");
        }
        int[] exchanged = new int[m * size];
        comm.Alltoall(all, 0, m, MPI.INT, exchanged, 0, m, MPI.INT);
        for (int from = 0; from < size; from++) {
            Check.equal(rank * m + 5, exchanged[from * m + 5], "large Alltoall from " + from);
        }
    }

    /** Rank i gets i % 3 items; blocks back to front with one free slot after each. Returns the end. */
    private static int reverseLayout(int[] counts, int[] displs) {
        int at = 0;
        for (int i = size - 1; i >= 0; i--) {
            counts[i] = i % 3;
            displs[i] = at;
            at += counts[i] + 1;
        }
        return at;
    }

    private static void expectReverseLayout(Kind kind, Object recv, int offset, int[] counts, int[] displs, int end,
                                            java.util.function.IntUnaryOperator base, String what) {
        for (int i = 0; i < offset; i++) {
            kind.expect(recv, i, Kind.UNTOUCHED, what + " before the blocks");
        }
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < counts[i]; k++) {
                kind.expect(recv, offset + displs[i] + k, base.applyAsInt(i) + k, what + " block of " + i);
            }
            kind.expect(recv, offset + displs[i] + counts[i], Kind.UNTOUCHED, what + " gap after " + i);
        }
    }
}
