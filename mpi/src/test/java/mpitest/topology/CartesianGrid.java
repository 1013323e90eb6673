package mpitest.topology;

import static mpitest.topology.Expect.equal;
import static mpitest.topology.Expect.that;

import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.ShiftParms;
import mpi.Status;

/**
 * A 2-D grid over all ranks, periodic and not: coordinates and ranks round-trip, shifts find the
 * right neighbours (PROC_NULL past a non-periodic edge), a halo exchange with Sendrecv delivers
 * each neighbour's value; then a grid smaller than the job, and Map.
 */
public class CartesianGrid {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int size = world.Size();
        int rank = world.Rank();
        Expect.who = "rank " + rank;

        int[] dims = new int[2];
        Cartcomm.Dims_create(size, dims);
        equal(size, (long) dims[0] * dims[1], "Dims_create product");
        for (boolean periodic : new boolean[] {true, false}) {
            boolean[] periods = {periodic, !periodic}; // mixed, so each dimension is tried both ways
            Cartcomm grid = world.Create_cart(dims, periods, false);
            that(grid != null, "every rank is in a grid of the whole job");
            equal(MPI.CART, grid.Topo_test(), "Topo_test");
            equal(size, grid.Size(), "grid size");
            equal(rank, grid.Rank(), "grid rank (no reordering)");

            int[] mine = {rank / dims[1], rank % dims[1]}; // row-major: the last dimension varies fastest
            CartParms parms = grid.Get();
            equal(dims, parms.dims, "Get().dims");
            equal(periods, parms.periods, "Get().periods");
            equal(mine, parms.coords, "Get().coords");
            for (int r = 0; r < size; r++) {
                equal(r, grid.Rank(grid.Coords(r)), "Rank(Coords(" + r + "))");
            }

            for (int direction = 0; direction < 2; direction++) {
                for (int disp : new int[] {1, -1, 2, 0, 5}) {
                    ShiftParms shift = grid.Shift(direction, disp);
                    String what = "Shift(" + direction + ", " + disp + ")";
                    equal(expectedNeighbour(mine, dims, periods, direction, -disp), shift.rank_source, what + ".rank_source");
                    equal(expectedNeighbour(mine, dims, periods, direction, disp), shift.rank_dest, what + ".rank_dest");
                }
                haloExchange(grid, direction, rank);
            }
            if (periods[0]) {
                equal(grid.Rank(new int[] {dims[0] - 1, mine[1]}), grid.Rank(new int[] {-1, mine[1]}), "periodic wrap below 0");
                equal(grid.Rank(new int[] {0, mine[1]}), grid.Rank(new int[] {dims[0], mine[1]}), "periodic wrap past the end");
            }
            Cartcomm copy = grid.Dup();
            equal(dims, copy.Get().dims, "Dup keeps the grid");
            equal(periods, copy.Get().periods, "Dup keeps the periods");
            equal(MPI.CART, ((Cartcomm) grid.clone()).Topo_test(), "clone keeps the topology");
            haloExchange(copy, 0, rank);
            grid.Barrier();
        }

        // A line over the first half of the job: the others are left out.
        int nodes = Math.max(1, size / 2);
        Cartcomm line = world.Create_cart(new int[] {nodes}, new boolean[] {false}, true);
        if (rank < nodes) {
            that(line != null, "a member of the line gets a communicator");
            equal(nodes, line.Size(), "line size");
            int[] sum = new int[1];
            line.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
            equal((long) nodes * (nodes - 1) / 2, sum[0], "sum of the line's ranks");
            equal(rank < nodes - 1 ? rank + 1 : MPI.PROC_NULL, line.Shift(0, 1).rank_dest, "line end has no successor");
        } else {
            that(line == null, "a rank beyond the line gets null");
        }
        equal(rank < nodes ? rank : MPI.UNDEFINED, world.Create_cart(dims, new boolean[2], false)
                .Map(new int[] {nodes}, new boolean[] {true}), "Map");
        MPI.Finalize();
    }

    /** Sends this rank along {@code direction} and checks what comes from the other side. */
    private static void haloExchange(Cartcomm grid, int direction, int rank) throws Exception {
        ShiftParms up = grid.Shift(direction, 1);
        int[] received = {-1};
        Status status = grid.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, up.rank_dest, 7,
                received, 0, 1, MPI.INT, up.rank_source, 7);
        if (up.rank_source == MPI.PROC_NULL) {
            equal(-1, received[0], "nothing arrives from PROC_NULL");
            equal(MPI.PROC_NULL, status.source, "status of a receive from PROC_NULL");
        } else {
            equal(up.rank_source, received[0], "halo value along dimension " + direction);
            equal(up.rank_source, status.source, "halo status source");
        }
    }

    /** The neighbour {@code disp} steps away, computed from first principles. */
    private static int expectedNeighbour(int[] coords, int[] dims, boolean[] periods, int direction, int disp) {
        int[] moved = coords.clone();
        int position = coords[direction] + disp;
        if (position < 0 || position >= dims[direction]) {
            if (!periods[direction]) {
                return MPI.PROC_NULL;
            }
            position = ((position % dims[direction]) + dims[direction]) % dims[direction];
        }
        moved[direction] = position;
        return moved[0] * dims[1] + moved[1];
    }
}
