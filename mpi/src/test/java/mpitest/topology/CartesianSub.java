package mpitest.topology;

import static mpitest.topology.Expect.equal;
import static mpitest.topology.Expect.that;

import mpi.Cartcomm;
import mpi.MPI;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Cartcomm.Sub: rows and columns of a 2-D grid whose Allreduce gives row and column sums, a
 * ring shift inside each (periodic) column, the zero- and all-dimension cases, and (on 8 ranks)
 * planes of a 3-D grid. All sub-grids of one Sub share a context, so the row test also checks
 * that no message strays between rows.
 */
public class CartesianSub {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int size = MPI.COMM_WORLD.Size();
        int rank = MPI.COMM_WORLD.Rank();
        Expect.who = "rank " + rank;

        int[] dims = new int[2];
        Cartcomm.Dims_create(size, dims);
        Cartcomm grid = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {true, false}, false);
        int row = rank / dims[1];
        int column = rank % dims[1];

        Cartcomm rowComm = grid.Sub(new boolean[] {false, true});
        equal(new int[] {dims[1]}, rowComm.Get().dims, "row dims");
        equal(new boolean[] {false}, rowComm.Get().periods, "row periods");
        equal(dims[1], rowComm.Size(), "row size");
        equal(column, rowComm.Rank(), "rank in the row");
        equal(sum(row * dims[1], 1, dims[1]), allSum(rowComm, rank), "row sum");

        Cartcomm columnComm = grid.Sub(new boolean[] {true, false});
        equal(new int[] {dims[0]}, columnComm.Get().dims, "column dims");
        equal(new boolean[] {true}, columnComm.Get().periods, "column periods");
        equal(row, columnComm.Rank(), "rank in the column");
        equal(sum(column, dims[1], dims[0]), allSum(columnComm, rank), "column sum");

        // Around the column ring: the value that arrives is the world rank one row up.
        ShiftParms down = columnComm.Shift(0, 1);
        int[] received = {-1};
        columnComm.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, down.rank_dest, 3, received, 0, 1, MPI.INT, down.rank_source, 3);
        equal(((row - 1 + dims[0]) % dims[0]) * dims[1] + column, received[0], "value from the row above");

        // Row rank 0 hears from every other member of its row through ANY_SOURCE, and from nobody else.
        if (column == 0) {
            boolean[] heard = new boolean[dims[1]];
            for (int i = 1; i < dims[1]; i++) {
                int[] value = new int[1];
                Status status = rowComm.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, 4);
                equal(row * dims[1] + status.source, value[0], "sender of a row message");
                that(!heard[status.source], "one message per row member");
                heard[status.source] = true;
            }
        } else {
            rowComm.Send(new int[] {rank}, 0, 1, MPI.INT, 0, 4);
        }

        Cartcomm self = grid.Sub(new boolean[] {false, false});
        equal(1, self.Size(), "size of a sub-grid keeping no dimension");
        equal(0, self.Get().dims.length, "dimensions of a sub-grid keeping none");
        equal(0, self.Rank(new int[0]), "the only rank of a zero-dimensional grid");

        Cartcomm whole = grid.Sub(new boolean[] {true, true});
        equal(size, whole.Size(), "size of a sub-grid keeping every dimension");
        equal(rank, whole.Rank(), "rank in a sub-grid keeping every dimension");
        equal(MPI.CART, whole.Topo_test(), "Topo_test of a sub-grid");

        if (size == 8) {
            Cartcomm cube = MPI.COMM_WORLD.Create_cart(new int[] {2, 2, 2}, new boolean[3], false);
            int[] c = cube.Coords(rank);
            Cartcomm plane = cube.Sub(new boolean[] {true, false, true});
            equal(new int[] {2, 2}, plane.Get().dims, "plane dims");
            equal(new int[] {c[0], c[2]}, plane.Get().coords, "coordinates in the plane");
            long expected = 0;
            for (int i = 0; i < 2; i++) {
                for (int k = 0; k < 2; k++) {
                    expected += cube.Rank(new int[] {i, c[1], k});
                }
            }
            equal(expected, allSum(plane, rank), "plane sum");
        }
        MPI.Finalize();
    }

    private static long allSum(Cartcomm comm, int value) throws Exception {
        int[] total = new int[1];
        comm.Allreduce(new int[] {value}, 0, total, 0, 1, MPI.INT, MPI.SUM);
        return total[0];
    }

    /** first + (first + step) + ... over {@code count} terms. */
    private static long sum(int first, int step, int count) {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += first + (long) i * step;
        }
        return total;
    }
}
