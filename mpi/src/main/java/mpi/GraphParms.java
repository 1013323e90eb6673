package mpi;

/**
 * What {@link Graphcomm#Get()} reports (MPI_GRAPHDIMS_GET and MPI_GRAPH_GET): {@code index[i]} is
 * the number of edges of nodes {@code 0..i} together, and the neighbours of node {@code i} are
 * {@code edges[index[i-1] .. index[i]-1]} (from {@code edges[0]} for node 0). The number of
 * nodes is {@code index.length}, of edges {@code edges.length}. The arrays are the caller's own copies.
 */
public class GraphParms {
    public int[] index;
    public int[] edges;

    public GraphParms() {}

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }
}
