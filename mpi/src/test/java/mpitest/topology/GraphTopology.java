package mpitest.topology;

import static mpitest.topology.Expect.equal;
import static mpitest.topology.Expect.that;

import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Graph topologies: a ring and a star over the whole job (Get, Neighbours, Map, and messages
 * along the edges), a graph over part of the job, and the empty graph.
 */
public class GraphTopology {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int size = world.Size();
        int rank = world.Rank();
        Expect.who = "rank " + rank;

        // ring: node i is joined to i-1 and i+1
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i - 1 + size) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        Graphcomm ring = world.Create_graph(index, edges, false);
        that(ring != null, "every rank is a node of the ring");
        equal(MPI.GRAPH, ring.Topo_test(), "Topo_test");
        equal(rank, ring.Rank(), "ring rank (no reordering)");
        GraphParms parms = ring.Get();
        equal(index, parms.index, "Get().index");
        equal(edges, parms.edges, "Get().edges");
        for (int r = 0; r < size; r++) {
            equal(new int[] {(r - 1 + size) % size, (r + 1) % size}, ring.Neighbours(r), "ring Neighbours(" + r + ")");
        }
        equal(rank, ring.Map(index, edges), "Map of the ring");
        // every node sends its rank to each neighbour and hears each neighbour's rank back
        int[] neighbours = ring.Neighbours(rank);
        int[][] heard = new int[neighbours.length][1];
        Request[] requests = new Request[2 * neighbours.length];
        for (int i = 0; i < neighbours.length; i++) {
            requests[i] = ring.Irecv(heard[i], 0, 1, MPI.INT, neighbours[i], 11);
            requests[neighbours.length + i] = ring.Isend(new int[] {rank}, 0, 1, MPI.INT, neighbours[i], 11);
        }
        Request.Waitall(requests);
        for (int i = 0; i < neighbours.length; i++) {
            equal(neighbours[i], heard[i][0], "value from neighbour " + i);
        }

        Graphcomm copy = ring.Dup();
        equal(MPI.GRAPH, copy.Topo_test(), "Dup keeps the topology");
        equal(edges, copy.Get().edges, "Dup keeps the edges");

        // star: node 0 is joined to every other node
        int[] starIndex = new int[size];
        int[] starEdges = new int[2 * (size - 1)];
        for (int i = 1; i < size; i++) {
            starEdges[i - 1] = i;
            starEdges[size - 1 + i - 1] = 0;
        }
        starIndex[0] = size - 1;
        for (int i = 1; i < size; i++) {
            starIndex[i] = size - 1 + i;
        }
        Graphcomm star = world.Create_graph(starIndex, starEdges, true);
        int[] leaves = new int[size - 1];
        for (int i = 1; i < size; i++) {
            leaves[i - 1] = i;
        }
        equal(leaves, star.Neighbours(0), "the hub's neighbours");
        for (int r = 1; r < size; r++) {
            equal(new int[] {0}, star.Neighbours(r), "leaf " + r + "'s neighbours");
        }
        if (rank == 0) {
            long total = 0;
            for (int i = 1; i < size; i++) {
                int[] value = new int[1];
                Status status = star.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, 12);
                equal(status.source * 100, value[0], "leaf value");
                total += value[0];
            }
            equal(100L * size * (size - 1) / 2, total, "sum over the leaves");
        } else {
            star.Send(new int[] {rank * 100}, 0, 1, MPI.INT, star.Neighbours(rank)[0], 12);
        }

        // a pair of nodes joined both ways, over the first two ranks only
        Graphcomm pair = world.Create_graph(new int[] {1, 2}, new int[] {1, 0}, false);
        if (rank < 2) {
            equal(2, pair.Size(), "size of the pair");
            int[] other = {-1};
            pair.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, 1 - rank, 13, other, 0, 1, MPI.INT, 1 - rank, 13);
            equal(1 - rank, other[0], "value from the other node of the pair");
        } else {
            that(pair == null, "a rank beyond the graph gets null");
        }
        equal(rank < 2 ? rank : MPI.UNDEFINED, ring.Map(new int[] {1, 2}, new int[] {1, 0}), "Map of the pair");

        that(world.Create_graph(new int[0], new int[0], false) == null, "the empty graph is a null communicator");
        world.Barrier();
        MPI.Finalize();
    }
}
