package mpi;

import dev.distvm.mpi.engine.Messenger;
import java.util.Arrays;

/**
 * A communicator whose processes form a Cartesian grid (MPI_CART_CREATE). Ranks follow the grid
 * in row-major order: the last dimension varies fastest. Made by
 * {@link Intracomm#Create_cart(int[], boolean[], boolean)}.
 *
 * <p>dist never reorders: grid rank {@code i} is rank {@code i} of the parent communicator, so the
 * {@code reorder} argument of {@code Create_cart} is accepted and ignored, and {@link #Map} returns
 * the caller's own rank.
 */
public class Cartcomm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;

    private Cartcomm(Messenger messenger, Group group, int context, int[] dims, boolean[] periods) {
        super(messenger, group, context);
        this.dims = dims.clone();
        this.periods = periods.clone();
    }

    /**
     * Collective over {@code parent}: the grid of the parent's first {@code dims[0]*...*dims[n-1]}
     * processes, or null for the processes beyond it.
     */
    static Cartcomm create(Intracomm parent, int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        parent.checkUsable();
        int nodes = checkGrid(parent, dims, periods);
        // every process of the parent takes part, including those left out of the grid
        int context = parent.newContext();
        if (parent.Rank() >= nodes) {
            return null;
        }
        return Topology.inheritErrhandler(parent,
                new Cartcomm(parent.messenger, Topology.firstMembers(parent.group, nodes), context, dims, periods));
    }

    /** MPI_COMM_DUP, collective: the same grid over the same processes, with a context of its own. */
    @Override
    public Cartcomm Dup() throws MPIException {
        checkUsable();
        return Topology.inheritErrhandler(this, new Cartcomm(messenger, group, newContext(), dims, periods));
    }

    /** The number of processes of a valid grid description, checked against {@code comm}'s size. */
    private static int checkGrid(Comm comm, int[] dims, boolean[] periods) throws MPIException {
        Topology.checkNotNull(comm, dims, "dims");
        Topology.checkNotNull(comm, periods, "periods");
        if (dims.length != periods.length) {
            throw comm.error(new MPIException(MPI.ERR_ARG, "dims has " + dims.length + " entries but periods has "
                    + periods.length + "; both need one per dimension"));
        }
        long nodes = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] <= 0) {
                throw comm.error(new MPIException(MPI.ERR_DIMS, "dims[" + i + "] = " + dims[i]
                        + ": every dimension needs at least 1 process"));
            }
            nodes = Math.min(nodes * dims[i], Integer.MAX_VALUE + 1L); // saturate: anything larger cannot fit anyway
        }
        Topology.checkFits(comm, nodes, "a grid of " + Arrays.toString(dims));
        return (int) nodes;
    }

    /** {@code MPI.CART}. */
    @Override
    public int Topo_test() throws MPIException {
        return MPI.CART;
    }

    /** MPI_CART_GET: the dimensions, their periodicity and the caller's coordinates, as copies. */
    public CartParms Get() throws MPIException {
        checkUsable();
        return new CartParms(dims.clone(), periods.clone(), Coords(Rank()));
    }

    /**
     * MPI_CART_RANK: the rank at {@code coords}. A coordinate outside {@code 0..dims[i]-1} wraps
     * around in a periodic dimension and is an error (ERR_ARG) in a non-periodic one.
     */
    public int Rank(int[] coords) throws MPIException {
        checkUsable();
        Topology.checkNotNull(this, coords, "coords");
        if (coords.length != dims.length) {
            throw error(new MPIException(MPI.ERR_ARG, "coords has " + coords.length + " entries; this grid has "
                    + dims.length + " dimensions"));
        }
        int rank = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (c < 0 || c >= dims[i]) {
                if (!periods[i]) {
                    throw error(new MPIException(MPI.ERR_ARG, "coords[" + i + "] = " + c + " is outside 0.."
                            + (dims[i] - 1) + " and dimension " + i + " is not periodic"));
                }
                c = Math.floorMod(c, dims[i]);
            }
            rank = rank * dims[i] + c;
        }
        return rank;
    }

    /** MPI_CART_COORDS: the grid coordinates of {@code rank}. */
    public int[] Coords(int rank) throws MPIException {
        checkUsable();
        checkRank(rank, "grid");
        int[] coords = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            coords[i] = rank % dims[i];
            rank /= dims[i];
        }
        return coords;
    }

    /**
     * MPI_CART_SHIFT: for a shift by {@code disp} along dimension {@code direction}, the rank this
     * process receives from (at coordinate {@code c - disp}) and sends to ({@code c + disp});
     * {@code MPI.PROC_NULL} where that falls off a non-periodic edge. Feed the result to
     * {@code Sendrecv}.
     */
    public ShiftParms Shift(int direction, int disp) throws MPIException {
        checkUsable();
        if (direction < 0 || direction >= dims.length) {
            throw error(new MPIException(MPI.ERR_DIMS, "direction " + direction + " is not a dimension of this grid (0.."
                    + (dims.length - 1) + ")"));
        }
        int[] coords = Coords(Rank());
        return new ShiftParms(neighbour(coords, direction, -(long) disp), neighbour(coords, direction, disp));
    }

    /** The rank {@code offset} steps from {@code coords} along {@code direction}, or PROC_NULL off the edge. */
    private int neighbour(int[] coords, int direction, long offset) throws MPIException {
        long position = coords[direction] + offset;
        if (position < 0 || position >= dims[direction]) {
            if (!periods[direction]) {
                return MPI.PROC_NULL;
            }
            position = Math.floorMod(position, (long) dims[direction]);
        }
        int[] moved = coords.clone();
        moved[direction] = (int) position;
        return Rank(moved);
    }

    /**
     * MPI_CART_SUB, collective: splits the grid into sub-grids that keep the dimensions with
     * {@code remain_dims[i]} true. The caller gets the sub-grid through itself, ranked in the
     * row-major order of the kept dimensions. Keeping no dimension gives a grid of zero dimensions
     * holding just the caller.
     */
    public Cartcomm Sub(boolean[] remain_dims) throws MPIException {
        checkUsable();
        Topology.checkNotNull(this, remain_dims, "remain_dims");
        if (remain_dims.length != dims.length) {
            throw error(new MPIException(MPI.ERR_ARG, "remain_dims has " + remain_dims.length
                    + " entries; this grid has " + dims.length + " dimensions"));
        }
        // The sub-grids are disjoint, so one context serves them all: no message can pass between two.
        int context = newContext();
        int[] mine = Coords(Rank());
        int kept = 0;
        for (boolean keep : remain_dims) {
            kept += keep ? 1 : 0;
        }
        int[] subDims = new int[kept];
        boolean[] subPeriods = new boolean[kept];
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (remain_dims[i]) {
                subDims[j] = dims[i];
                subPeriods[j++] = periods[i];
            }
        }
        // Members in increasing rank here, which is row-major order of the kept coordinates too.
        int size = Size();
        int[] members = new int[size];
        int count = 0;
        for (int rank = 0; rank < size; rank++) {
            if (sameSubGrid(mine, Coords(rank), remain_dims)) {
                members[count++] = group.worldRank(rank);
            }
        }
        Group subGroup = new Group(Arrays.copyOf(members, count), group.myWorldRank());
        return Topology.inheritErrhandler(this, new Cartcomm(messenger, subGroup, context, subDims, subPeriods));
    }

    private static boolean sameSubGrid(int[] a, int[] b, boolean[] remain) {
        for (int i = 0; i < a.length; i++) {
            if (!remain[i] && a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * MPI_CART_MAP: the rank the caller would have in a grid {@code dims} made from this
     * communicator, or {@code MPI.UNDEFINED} if it would be left out. Without reordering that is
     * its own rank when below the grid's size.
     */
    public int Map(int[] dims, boolean[] periods) throws MPIException {
        checkUsable();
        return Topology.identityMap(this, checkGrid(this, dims, periods));
    }

    /**
     * MPI_DIMS_CREATE: fills the zero entries of {@code dims} so that all entries multiply to
     * {@code nnodes}, as close to each other as possible and in non-increasing order; positive
     * entries are kept. ERR_DIMS when the positive entries do not divide {@code nnodes} (or, with
     * no zero entry, do not multiply to it) or an entry is negative. A local computation: it
     * needs no communicator (and works before {@code MPI.Init}).
     */
    public static void Dims_create(int nnodes, int[] dims) throws MPIException {
        if (dims == null) {
            throw new MPIException(MPI.ERR_ARG, "dims is null");
        }
        if (nnodes < 1) {
            throw new MPIException(MPI.ERR_ARG, "nnodes = " + nnodes + ": a grid has at least 1 process");
        }
        long fixed = 1;
        int free = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] < 0) {
                throw new MPIException(MPI.ERR_DIMS, "dims[" + i + "] = " + dims[i]
                        + ": entries are 0 (to be chosen) or a fixed positive extent");
            }
            if (dims[i] == 0) {
                free++;
            } else {
                fixed = Math.min(fixed * dims[i], Integer.MAX_VALUE + 1L);
            }
        }
        if (nnodes % fixed != 0 || (free == 0 && fixed != nnodes)) {
            throw new MPIException(MPI.ERR_DIMS, "the fixed entries of " + Arrays.toString(dims)
                    + (free == 0 ? " do not multiply to " : " multiply to a number that does not divide ") + nnodes);
        }
        int[] chosen = TopologyDims.balanced((int) (nnodes / fixed), free);
        for (int i = 0, j = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = chosen[j++];
            }
        }
    }
}
