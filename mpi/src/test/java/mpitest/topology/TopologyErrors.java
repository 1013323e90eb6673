package mpitest.topology;

import static mpitest.topology.Expect.equal;
import static mpitest.topology.Expect.error;

import mpi.Cartcomm;
import mpi.Graphcomm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Misuse of topologies and inter-communicators fails with the right error class on every rank,
 * without hanging, and leaves the communicators usable.
 */
public class TopologyErrors {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int size = world.Size();
        int rank = world.Rank();
        Expect.who = "rank " + rank;

        error(MPI.ERR_TOPOLOGY, "grid larger than the job", () -> world.Create_cart(new int[] {size + 1}, new boolean[1], false));
        error(MPI.ERR_TOPOLOGY, "2-D grid larger than the job", () -> world.Create_cart(new int[] {size, 2}, new boolean[2], false));
        error(MPI.ERR_DIMS, "zero extent", () -> world.Create_cart(new int[] {0}, new boolean[1], false));
        error(MPI.ERR_DIMS, "negative extent", () -> world.Create_cart(new int[] {size, -1}, new boolean[2], false));
        error(MPI.ERR_ARG, "periods of the wrong length", () -> world.Create_cart(new int[] {size}, new boolean[2], false));
        error(MPI.ERR_ARG, "null dims", () -> world.Create_cart(null, new boolean[1], false));

        Cartcomm line = world.Create_cart(new int[] {size}, new boolean[] {false}, false);
        error(MPI.ERR_ARG, "coordinate past a non-periodic end", () -> line.Rank(new int[] {size}));
        error(MPI.ERR_ARG, "negative coordinate, non-periodic", () -> line.Rank(new int[] {-1}));
        error(MPI.ERR_ARG, "coordinates of the wrong length", () -> line.Rank(new int[] {0, 0}));
        error(MPI.ERR_RANK, "Coords of a rank past the end", () -> line.Coords(size));
        error(MPI.ERR_RANK, "Coords of a negative rank", () -> line.Coords(-1));
        error(MPI.ERR_DIMS, "Shift along a dimension the grid lacks", () -> line.Shift(1, 1));
        error(MPI.ERR_DIMS, "Shift along a negative dimension", () -> line.Shift(-1, 1));
        error(MPI.ERR_ARG, "Sub with the wrong number of dimensions", () -> line.Sub(new boolean[2]));
        error(MPI.ERR_TOPOLOGY, "Map of a grid larger than the communicator", () -> line.Map(new int[] {size + 1}, new boolean[1]));
        Cartcomm ring = world.Create_cart(new int[] {size}, new boolean[] {true}, false);
        equal(size - 1, ring.Rank(new int[] {-1}), "a periodic coordinate wraps instead of failing");

        error(MPI.ERR_TOPOLOGY, "graph larger than the job", () -> world.Create_graph(new int[size + 1], new int[0], false));
        error(MPI.ERR_TOPOLOGY, "edge to a node that does not exist", () -> world.Create_graph(new int[] {1}, new int[] {1}, false));
        error(MPI.ERR_TOPOLOGY, "index going down", () -> world.Create_graph(new int[] {1, 0}, new int[] {1}, false));
        error(MPI.ERR_ARG, "edges not matching index", () -> world.Create_graph(new int[] {1}, new int[] {0, 0}, false));
        Graphcomm loop = world.Create_graph(new int[] {1}, new int[] {0}, false);
        if (rank == 0) {
            equal(new int[] {0}, loop.Neighbours(0), "a node joined to itself");
            error(MPI.ERR_RANK, "Neighbours of a node that does not exist", () -> loop.Neighbours(1));
        }

        // overlapping groups: everyone's local group is the whole job, leader 0 names itself as remote leader
        error(MPI.ERR_GROUP, "inter-communicator over overlapping groups", () -> world.Create_intercomm(world, 0, 0, 77));
        error(MPI.ERR_RANK, "local leader outside local_comm", () -> world.Create_intercomm(world, size, 0, 77));
        if (size >= 2) {
            int parity = rank % 2;
            Intracomm half = world.Split(parity, rank);
            Intercomm inter = world.Create_intercomm(half, 0, 1 - parity, 78);
            error(MPI.ERR_COMM, "an inter-communicator as local_comm", () -> world.Create_intercomm(inter, 0, 1 - parity, 79));
            error(MPI.ERR_RANK, "send to a remote rank that does not exist",
                    () -> inter.Send(new int[1], 0, 1, MPI.INT, inter.Remote_size(), 1));
        }

        // nothing above left a message behind or a process behind
        int[] sum = new int[1];
        world.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        equal((long) size * (size - 1) / 2, sum[0], "the world still works");
        MPI.Finalize();
    }
}
