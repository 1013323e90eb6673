package mpi;

import java.util.Arrays;

/** What Cartesian and graph topologies share: who is a member, and the placement they compute. */
final class Topology {
    private Topology() {}

    /**
     * The members of a topology of {@code nodes} processes: the parent's first {@code nodes}
     * ranks, in the parent's order. dist does not reorder (all ranks of a job are alike to it),
     * so topology rank {@code i} is parent rank {@code i}.
     */
    static Group firstMembers(Group parent, int nodes) {
        return new Group(Arrays.copyOf(parent.worldRanks(), nodes), parent.myWorldRank());
    }

    /** The rank MPI_CART_MAP / MPI_GRAPH_MAP give the caller of a topology of {@code nodes}: its own, or UNDEFINED. */
    static int identityMap(Comm comm, int nodes) throws MPIException {
        int rank = comm.Rank();
        return rank < nodes ? rank : MPI.UNDEFINED;
    }

    /** Fails with ERR_TOPOLOGY when a topology of {@code nodes} processes cannot fit in {@code comm}. */
    static void checkFits(Comm comm, long nodes, String what) throws MPIException {
        int size = comm.Size();
        if (nodes > size) {
            throw comm.error(new MPIException(MPI.ERR_TOPOLOGY, what + " needs " + nodes
                    + " processes but the communicator has only " + size));
        }
    }

    /** A new communicator takes its parent's error handler, as MPI's constructors do. */
    static <C extends Comm> C inheritErrhandler(Comm parent, C child) throws MPIException {
        child.Errhandler_set(parent.Errorhandler_get());
        return child;
    }

    static void checkNotNull(Comm comm, Object array, String name) throws MPIException {
        if (array == null) {
            throw comm.error(new MPIException(MPI.ERR_ARG, name + " is null"));
        }
    }
}
