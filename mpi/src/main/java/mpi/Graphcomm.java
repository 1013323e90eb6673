package mpi;

import dev.distvm.mpi.engine.Messenger;
import java.util.Arrays;

/**
 * A communicator whose processes are the nodes of a graph (MPI_GRAPH_CREATE), described as in
 * {@link GraphParms}. Made by {@link Intracomm#Create_graph(int[], int[], boolean)}.
 *
 * <p>dist never reorders: node {@code i} is rank {@code i} of the parent communicator, so the
 * {@code reorder} argument of {@code Create_graph} is accepted and ignored, and {@link #Map}
 * returns the caller's own rank.
 */
public class Graphcomm extends Intracomm {
    private final int[] index;
    private final int[] edges;

    private Graphcomm(Messenger messenger, Group group, int context, int[] index, int[] edges) {
        super(messenger, group, context);
        this.index = index.clone();
        this.edges = edges.clone();
    }

    /**
     * Collective over {@code parent}: the graph over the parent's first {@code index.length}
     * processes, or null for the processes beyond it (for everyone when the graph is empty).
     */
    static Graphcomm create(Intracomm parent, int[] index, int[] edges, boolean reorder) throws MPIException {
        parent.checkUsable();
        int nodes = checkGraph(parent, index, edges);
        if (nodes == 0) {
            return null; // MPI: an empty graph gives MPI_COMM_NULL everywhere, and needs no context
        }
        int context = parent.newContext();
        if (parent.Rank() >= nodes) {
            return null;
        }
        return Topology.inheritErrhandler(parent,
                new Graphcomm(parent.messenger, Topology.firstMembers(parent.group, nodes), context, index, edges));
    }

    /** MPI_COMM_DUP, collective: the same graph over the same processes, with a context of its own. */
    @Override
    public Graphcomm Dup() throws MPIException {
        checkUsable();
        return Topology.inheritErrhandler(this, new Graphcomm(messenger, group, newContext(), index, edges));
    }

    /** The number of nodes of a valid graph description, checked against {@code comm}'s size. */
    private static int checkGraph(Comm comm, int[] index, int[] edges) throws MPIException {
        Topology.checkNotNull(comm, index, "index");
        Topology.checkNotNull(comm, edges, "edges");
        int nodes = index.length;
        Topology.checkFits(comm, nodes, "a graph of " + nodes + " nodes");
        int previous = 0;
        for (int i = 0; i < nodes; i++) {
            if (index[i] < previous) {
                throw comm.error(new MPIException(MPI.ERR_TOPOLOGY, "index[" + i + "] = " + index[i]
                        + " is less than " + (i == 0 ? "0" : "index[" + (i - 1) + "] = " + previous)
                        + "; index holds the running total of the nodes' degrees"));
            }
            previous = index[i];
        }
        if (edges.length != previous) {
            throw comm.error(new MPIException(MPI.ERR_ARG, "edges has " + edges.length + " entries but index says "
                    + previous + " (index[" + (nodes - 1) + "])"));
        }
        for (int e = 0; e < edges.length; e++) {
            if (edges[e] < 0 || edges[e] >= nodes) {
                throw comm.error(new MPIException(MPI.ERR_TOPOLOGY, "edges[" + e + "] = " + edges[e]
                        + " is not a node of this graph (0.." + (nodes - 1) + ")"));
            }
        }
        return nodes;
    }

    /** {@code MPI.GRAPH}. */
    @Override
    public int Topo_test() throws MPIException {
        return MPI.GRAPH;
    }

    /** MPI_GRAPHDIMS_GET and MPI_GRAPH_GET: the graph's index and edges, as copies. */
    public GraphParms Get() throws MPIException {
        checkUsable();
        return new GraphParms(index.clone(), edges.clone());
    }

    /**
     * MPI_GRAPH_NEIGHBORS (and, through the array's length, MPI_GRAPH_NEIGHBORS_COUNT): the
     * neighbours of node {@code rank}, in the order the graph lists them.
     */
    public int[] Neighbours(int rank) throws MPIException {
        checkUsable();
        checkRank(rank, "graph node");
        return Arrays.copyOfRange(edges, rank == 0 ? 0 : index[rank - 1], index[rank]);
    }

    /**
     * MPI_GRAPH_MAP: the rank the caller would have in the graph {@code (index, edges)} made from
     * this communicator, or {@code MPI.UNDEFINED} if it would be left out. Without reordering that
     * is its own rank when below the number of nodes.
     */
    public int Map(int[] index, int[] edges) throws MPIException {
        checkUsable();
        return Topology.identityMap(this, checkGraph(this, index, edges));
    }
}
