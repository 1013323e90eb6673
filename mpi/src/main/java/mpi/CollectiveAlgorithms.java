package mpi;


/**
 * The algorithms behind {@link Intracomm}'s collectives, run by every member of the communicator
 * on its collective context. Arguments are checked by Intracomm before any of these is called.
 *
 * <p>Every send is eager (the message is on its way when {@code send} returns), so an exchange is
 * "post the receive, send, wait" and cannot deadlock. Messages between two ranks on one tag
 * arrive in order, and all members call collectives in the same order with the same root, so the
 * messages of consecutive collectives cannot be confused; the tags only keep the kinds apart.
 *
 * <p>Binomial trees work on ranks relative to the root, {@code (rank - root) mod size}: relative
 * rank {@code v} receives from {@code v - lowbit(v)} and serves {@code v + 2^k} for
 * {@code 2^k < lowbit(v)}; its subtree is the relative ranks {@code [v, v + lowbit(v))}.
 */
final class CollectiveAlgorithms {
    static final int BARRIER_TAG = 1;
    static final int BCAST_TAG = 2;
    static final int GATHER_TAG = 3;
    static final int SCATTER_TAG = 4;
    static final int ALLGATHER_TAG = 5;
    static final int ALLTOALL_TAG = 6;
    static final int REDUCE_TAG = 7;
    static final int REDUCE_RESULT_TAG = 8;
    static final int ALLREDUCE_TAG = 9;
    static final int REDUCE_SCATTER_TAG = 10;
    static final int SCAN_TAG = 11;

    /** From this many bytes on, bandwidth matters more than the number of steps. */
    static final long LARGE_MESSAGE = 64 * 1024;

    private final Intracomm comm;
    private final int rank;
    private final int size;

    CollectiveAlgorithms(Intracomm comm) throws MPIException {
        this.comm = comm;
        this.rank = comm.Rank();
        this.size = comm.Size();
    }

    // ---- synchronization and broadcast ----------------------------------------------------------

    /** Dissemination barrier: in round k every rank signals {@code rank + 2^k} and hears from {@code rank - 2^k}; ceil(log2 n) rounds. */
    void barrier() throws MPIException {
        byte[] none = new byte[0];
        Datatype bytes = Datatype.predefined(BaseType.BYTE);
        for (int distance = 1; distance < size; distance <<= 1) {
            Request heard = comm.collectiveReceive(none, 0, 0, bytes, (rank - distance + size) % size, BARRIER_TAG);
            comm.collectiveSend(none, 0, 0, bytes, (rank + distance) % size, BARRIER_TAG);
            heard.Wait();
        }
    }

    /** Binomial tree from the root, straight in and out of the caller's buffer. */
    void bcast(Object buf, int offset, int count, Datatype type, int root) throws MPIException {
        int v = relative(rank, root);
        int mask = 1;
        while (mask < size) {
            if ((v & mask) != 0) {
                comm.collectiveReceive(buf, offset, count, type, absolute(v - mask, root), BCAST_TAG).Wait();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (v + mask < size) {
                comm.collectiveSend(buf, offset, count, type, absolute(v + mask, root), BCAST_TAG);
            }
        }
    }

    // ---- gathers and scatters -----------------------------------------------------------------

    /**
     * Binomial-tree gather: each rank's {@code m} base elements travel up the tree, every inner
     * node forwarding its whole subtree as one message; the root holds them in relative-rank order
     * and places them in two runs.
     */
    void gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        int m = sendtype.layout.elements(sendcount);
        CollectiveData data = CollectiveData.elements(sendtype);
        int[] start = uniform(m);
        Object work = data.allocate(span(start, root));
        CollectiveData.copy(sendbuf, sendoffset, sendcount, sendtype, work, 0, m, data.type);
        gatherTree(data, start, work, root, GATHER_TAG);
        if (rank == root) {
            int block = recvcount * recvtype.Extent();
            int upper = size - root; // relative ranks 0 .. upper-1 are ranks root .. size-1
            CollectiveData.copy(work, 0, upper * m, data.type, recvbuf, recvoffset + root * block, upper * recvcount, recvtype);
            CollectiveData.copy(work, upper * m, root * m, data.type, recvbuf, recvoffset, root * recvcount, recvtype);
        }
    }

    /**
     * Gatherv: only the root knows the counts, so no inner node could forward a subtree; the root
     * posts all receives at once, straight into their places (as MPICH does), and each other rank
     * sends once.
     */
    void gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                 Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        if (rank != root) {
            comm.collectiveSend(sendbuf, sendoffset, sendcount, sendtype, root, GATHER_TAG);
            return;
        }
        int extent = recvtype.Extent();
        Request[] arrivals = new Request[size];
        for (int i = 0; i < size; i++) {
            if (i != root) {
                arrivals[i] = comm.collectiveReceive(recvbuf, recvoffset + displs[i] * extent, recvcount[i], recvtype, i, GATHER_TAG);
            }
        }
        CollectiveData.copy(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset + displs[root] * extent,
                recvcount[root], recvtype);
        Request.Waitall(arrivals);
    }

    /** Binomial-tree scatter, the gather reversed: each inner node receives its subtree's blocks as one message. */
    void scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                 Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        int m = recvtype.layout.elements(recvcount);
        CollectiveData data = CollectiveData.elements(recvtype);
        int[] start = uniform(m);
        Object work = data.allocate(span(start, root));
        if (rank == root) {
            int block = sendcount * sendtype.Extent();
            int upper = size - root;
            CollectiveData.copy(sendbuf, sendoffset + root * block, upper * sendcount, sendtype, work, 0, upper * m, data.type);
            CollectiveData.copy(sendbuf, sendoffset, root * sendcount, sendtype, work, upper * m, root * m, data.type);
        }
        scatterTree(data, start, work, root, SCATTER_TAG);
        CollectiveData.copy(work, 0, m, data.type, recvbuf, recvoffset, recvcount, recvtype);
    }

    /** Scatterv: only the root knows the counts, so it sends each rank its block directly (as MPICH does). */
    void scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                  Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        if (rank != root) {
            comm.collectiveReceive(recvbuf, recvoffset, recvcount, recvtype, root, SCATTER_TAG).Wait();
            return;
        }
        int extent = sendtype.Extent();
        for (int i = 0; i < size; i++) {
            if (i != root) {
                comm.collectiveSend(sendbuf, sendoffset + displs[i] * extent, sendcount[i], sendtype, i, SCATTER_TAG);
            }
        }
        CollectiveData.copy(sendbuf, sendoffset + displs[root] * extent, sendcount[root], sendtype,
                recvbuf, recvoffset, recvcount, recvtype);
    }

    /** Allgather: each rank's block into a working buffer in rank order, exchanged by {@link #allgatherBlocks}, then placed. */
    void allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                   Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        int m = sendtype.layout.elements(sendcount);
        CollectiveData data = CollectiveData.elements(sendtype);
        int[] start = uniform(m);
        Object work = data.allocate(start[size]);
        CollectiveData.copy(sendbuf, sendoffset, sendcount, sendtype, work, start[rank], m, data.type);
        allgatherBlocks(data, start, work, ALLGATHER_TAG);
        CollectiveData.copy(work, 0, start[size], data.type, recvbuf, recvoffset, size * recvcount, recvtype);
    }

    void allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                    Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        CollectiveData data = CollectiveData.elements(sendtype);
        int[] start = new int[size + 1];
        for (int i = 0; i < size; i++) {
            start[i + 1] = Math.addExact(start[i], recvtype.layout.elements(recvcount[i]));
        }
        Object work = data.allocate(start[size]);
        CollectiveData.copy(sendbuf, sendoffset, sendcount, sendtype, work, start[rank], start[rank + 1] - start[rank], data.type);
        allgatherBlocks(data, start, work, ALLGATHER_TAG);
        int extent = recvtype.Extent();
        for (int i = 0; i < size; i++) {
            CollectiveData.copy(work, start[i], start[i + 1] - start[i], data.type,
                    recvbuf, recvoffset + displs[i] * extent, recvcount[i], recvtype);
        }
    }

    /** Pairwise exchange: in step s every rank sends to {@code rank + s} and receives from {@code rank - s}, straight between the callers' buffers. */
    void alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                   Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        int sendExtent = sendtype.Extent();
        int recvExtent = recvtype.Extent();
        CollectiveData.copy(sendbuf, sendoffset + sdispls[rank] * sendExtent, sendcount[rank], sendtype,
                recvbuf, recvoffset + rdispls[rank] * recvExtent, recvcount[rank], recvtype);
        for (int step = 1; step < size; step++) {
            int to = (rank + step) % size;
            int from = (rank - step + size) % size;
            Request arrival = comm.collectiveReceive(recvbuf, recvoffset + rdispls[from] * recvExtent, recvcount[from],
                    recvtype, from, ALLTOALL_TAG);
            comm.collectiveSend(sendbuf, sendoffset + sdispls[to] * sendExtent, sendcount[to], sendtype, to, ALLTOALL_TAG);
            arrival.Wait();
        }
    }

    // ---- reductions ---------------------------------------------------------------------------

    /**
     * Reduce: a binomial tree in which every node computes {@code own op child}, a child's
     * subtree being the ranks just above its parent's. For a commutative operation the tree is
     * rooted at the root directly. For a non-commutative one it is rooted at rank 0, so that every
     * node's value covers consecutive ranks and is combined in rank order, and rank 0 then passes
     * the result to the root: one extra message for the order MPI requires.
     */
    void reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op,
                int root) throws MPIException {
        CollectiveReduction reduction = new CollectiveReduction(op, datatype, count);
        Object value = reduction.load(sendbuf, sendoffset);
        boolean ordered = !reduction.commutative();
        Object result = reduceTree(reduction, value, ordered ? 0 : root, REDUCE_TAG);
        if (ordered && root != 0) {
            if (rank == 0) {
                comm.collectiveSend(result, 0, reduction.data.count(count), reduction.data.type, root, REDUCE_RESULT_TAG);
            } else if (rank == root) {
                result = reduction.allocate(count);
                comm.collectiveReceive(result, 0, reduction.data.count(count), reduction.data.type, 0, REDUCE_RESULT_TAG).Wait();
            }
        }
        if (rank == root) {
            reduction.store(result, 0, count, recvbuf, recvoffset);
        }
    }

    /**
     * Allreduce: for large vectors and a commutative operation, a ring reduce-scatter followed by a
     * ring allgather (each rank sends and receives about twice the vector, whatever the number of
     * ranks); otherwise recursive doubling, which takes log2 n steps and, combining in rank order,
     * also serves non-commutative operations.
     */
    void allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op)
            throws MPIException {
        CollectiveReduction reduction = new CollectiveReduction(op, datatype, count);
        Object value = reduction.load(sendbuf, sendoffset);
        if (size > 1 && reduction.commutative() && reduction.bytes() >= LARGE_MESSAGE && count >= size) {
            int[] start = new int[size + 1];
            for (int i = 0; i <= size; i++) {
                start[i] = (int) ((long) count * i / size);
            }
            ringReduceScatter(reduction, value, start, ALLREDUCE_TAG);
            allgatherBlocks(reduction.data, start, value, ALLREDUCE_TAG);
        } else {
            value = recursiveDoubling(reduction, value, ALLREDUCE_TAG);
        }
        reduction.store(value, 0, count, recvbuf, recvoffset);
    }

    /**
     * Reduce_scatter: for large vectors and a commutative operation, the ring reduce-scatter that
     * leaves each rank exactly its block; otherwise a reduce to rank 0 (ordered) and a binomial
     * scatter of the blocks.
     */
    void reduceScatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                       Datatype datatype, Op op) throws MPIException {
        int[] start = new int[size + 1];
        for (int i = 0; i < size; i++) {
            start[i + 1] = Math.addExact(start[i], recvcounts[i]);
        }
        CollectiveReduction reduction = new CollectiveReduction(op, datatype, start[size]);
        Object value = reduction.load(sendbuf, sendoffset);
        if (size > 1 && reduction.commutative() && reduction.bytes() >= LARGE_MESSAGE) {
            ringReduceScatter(reduction, value, start, REDUCE_SCATTER_TAG);
            reduction.store(value, start[rank], recvcounts[rank], recvbuf, recvoffset);
            return;
        }
        Object reduced = reduceTree(reduction, value, 0, REDUCE_SCATTER_TAG);
        Object mine = rank == 0 ? reduced : reduction.allocate(span(start, 0));
        scatterTree(reduction.data, start, mine, 0, REDUCE_SCATTER_TAG);
        reduction.store(mine, 0, recvcounts[rank], recvbuf, recvoffset);
    }

    /**
     * Inclusive scan by recursive doubling: in step k a rank exchanges its partial (the reduction
     * of an aligned block of 2^k ranks) with {@code rank xor 2^k}; a partial from below enters
     * both its partial and its result on the left, one from above its partial on the right.
     */
    void scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op)
            throws MPIException {
        CollectiveReduction reduction = new CollectiveReduction(op, datatype, count);
        Object partial = reduction.load(sendbuf, sendoffset);
        Object result = reduction.load(sendbuf, sendoffset);
        Object other = reduction.allocate(count);
        int units = reduction.data.count(count);
        Datatype wire = reduction.data.type;
        for (int mask = 1; mask < size; mask <<= 1) {
            int partner = rank ^ mask;
            if (partner >= size) {
                continue;
            }
            Request arrival = comm.collectiveReceive(other, 0, units, wire, partner, SCAN_TAG);
            comm.collectiveSend(partial, 0, units, wire, partner, SCAN_TAG);
            arrival.Wait();
            if (partner < rank) {
                reduction.reduce(other, partial);
                reduction.reduce(other, result);
            } else {
                Object combined = reduction.reduce(partial, other);
                other = partial;
                partial = combined;
            }
        }
        reduction.store(result, 0, count, recvbuf, recvoffset);
    }

    // ---- building blocks ----------------------------------------------------------------------

    /**
     * Binomial reduction to {@code root}; returns the result at the root, null elsewhere. Each
     * node computes {@code own op child}: with root 0 a child always holds the ranks just above.
     */
    private Object reduceTree(CollectiveReduction reduction, Object value, int root, int tag) throws MPIException {
        int v = relative(rank, root);
        int units = reduction.data.count(reduction.count);
        Datatype wire = reduction.data.type;
        Object spare = null;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((v & mask) != 0) {
                comm.collectiveSend(value, 0, units, wire, absolute(v - mask, root), tag);
                return null;
            }
            if (v + mask < size) {
                if (spare == null) {
                    spare = reduction.allocate(reduction.count);
                }
                comm.collectiveReceive(spare, 0, units, wire, absolute(v + mask, root), tag).Wait();
                Object combined = reduction.reduce(value, spare);
                spare = value;
                value = combined;
            }
        }
        return value;
    }

    /**
     * Allreduce by recursive doubling, with MPICH's fix-up for a size that is not a power of two:
     * of the first {@code 2 * rem} ranks each even one hands its vector to the odd one above and
     * sits out, the remaining power of two exchange with partners {@code 2^k} apart (in the
     * renumbering, which keeps rank order), and the odd ones hand the result back. Each exchange
     * combines lower op higher, so every rank computes the same rank-ordered result.
     */
    private Object recursiveDoubling(CollectiveReduction reduction, Object value, int tag) throws MPIException {
        int units = reduction.data.count(reduction.count);
        Datatype wire = reduction.data.type;
        int pof2 = Integer.highestOneBit(size);
        int rem = size - pof2;
        Object other = reduction.allocate(reduction.count);
        int renumbered;
        if (rank < 2 * rem) {
            if (rank % 2 == 0) {
                comm.collectiveSend(value, 0, units, wire, rank + 1, tag);
                renumbered = -1;
            } else {
                comm.collectiveReceive(other, 0, units, wire, rank - 1, tag).Wait();
                reduction.reduce(other, value);
                renumbered = rank / 2;
            }
        } else {
            renumbered = rank - rem;
        }
        if (renumbered >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int renumberedPartner = renumbered ^ mask;
                int partner = renumberedPartner < rem ? renumberedPartner * 2 + 1 : renumberedPartner + rem;
                Request arrival = comm.collectiveReceive(other, 0, units, wire, partner, tag);
                comm.collectiveSend(value, 0, units, wire, partner, tag);
                arrival.Wait();
                if (partner < rank) {
                    reduction.reduce(other, value);
                } else {
                    Object combined = reduction.reduce(value, other);
                    other = value;
                    value = combined;
                }
            }
        }
        if (rank < 2 * rem) {
            if (rank % 2 == 1) {
                comm.collectiveSend(value, 0, units, wire, rank - 1, tag);
            } else {
                comm.collectiveReceive(value, 0, units, wire, rank + 1, tag).Wait();
            }
        }
        return value;
    }

    /**
     * Ring reduce-scatter over blocks {@code [start[i], start[i+1])} of items: in step s rank r
     * sends its partial block {@code r-s-1} to the right and folds the left neighbour's block
     * {@code r-s-2} into its own; after n-1 steps block r is complete at rank r. Commutative
     * operations only: the blocks are combined in ring order.
     */
    private void ringReduceScatter(CollectiveReduction reduction, Object value, int[] start, int tag) throws MPIException {
        int largest = 0;
        for (int i = 0; i < size; i++) {
            largest = Math.max(largest, start[i + 1] - start[i]);
        }
        Object incoming = reduction.allocate(largest);
        CollectiveData data = reduction.data;
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int step = 0; step < size - 1; step++) {
            int out = Math.floorMod(rank - step - 1, size);
            int in = Math.floorMod(rank - step - 2, size);
            int inItems = start[in + 1] - start[in];
            Request arrival = comm.collectiveReceive(incoming, 0, data.count(inItems), data.type, left, tag);
            comm.collectiveSend(value, data.position(start[out]), data.count(start[out + 1] - start[out]), data.type, right, tag);
            arrival.Wait();
            reduction.combine(incoming, 0, value, start[in], inItems);
        }
    }

    /**
     * Allgather of blocks {@code [start[i], start[i+1])} of a working buffer in which each rank
     * holds its own block: recursive doubling (log2 n steps, doubling the blocks held) when the
     * size is a power of two, a ring (n-1 steps, one block each) otherwise. Both move each block
     * to each rank once.
     */
    private void allgatherBlocks(CollectiveData data, int[] start, Object work, int tag) throws MPIException {
        if (Integer.bitCount(size) == 1) {
            for (int mask = 1; mask < size; mask <<= 1) {
                int partner = rank ^ mask;
                int mine = rank & -mask;
                int theirs = partner & -mask;
                Request arrival = comm.collectiveReceive(work, data.position(start[theirs]),
                        data.count(start[theirs + mask] - start[theirs]), data.type, partner, tag);
                comm.collectiveSend(work, data.position(start[mine]), data.count(start[mine + mask] - start[mine]),
                        data.type, partner, tag);
                arrival.Wait();
            }
            return;
        }
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int step = 0; step < size - 1; step++) {
            int out = Math.floorMod(rank - step, size);
            int in = Math.floorMod(rank - step - 1, size);
            Request arrival = comm.collectiveReceive(work, data.position(start[in]), data.count(start[in + 1] - start[in]),
                    data.type, left, tag);
            comm.collectiveSend(work, data.position(start[out]), data.count(start[out + 1] - start[out]), data.type, right, tag);
            arrival.Wait();
        }
    }

    /**
     * Binomial gather of blocks {@code [start[v], start[v+1])} (v relative to the root) into a
     * working buffer that holds this rank's subtree from item 0, its own block first. Returns
     * having sent the subtree to the parent; the root ends up with every block.
     */
    private void gatherTree(CollectiveData data, int[] start, Object work, int root, int tag) throws MPIException {
        int v = relative(rank, root);
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((v & mask) != 0) {
                int end = start[Math.min(v + mask, size)];
                comm.collectiveSend(work, 0, data.count(end - start[v]), data.type, absolute(v - mask, root), tag);
                return;
            }
            int child = v + mask;
            if (child < size) {
                int childEnd = start[Math.min(child + mask, size)];
                comm.collectiveReceive(work, data.position(start[child] - start[v]), data.count(childEnd - start[child]),
                        data.type, absolute(child, root), tag).Wait();
            }
        }
    }

    /** The reverse of {@link #gatherTree}: the root's working buffer holds every block; each rank ends with its subtree's. */
    private void scatterTree(CollectiveData data, int[] start, Object work, int root, int tag) throws MPIException {
        int v = relative(rank, root);
        int mask = 1;
        while (mask < size) {
            if ((v & mask) != 0) {
                int end = start[Math.min(v + mask, size)];
                comm.collectiveReceive(work, 0, data.count(end - start[v]), data.type, absolute(v - mask, root), tag).Wait();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int child = v + mask;
            if (child < size) {
                int childEnd = start[Math.min(child + mask, size)];
                comm.collectiveSend(work, data.position(start[child] - start[v]), data.count(childEnd - start[child]),
                        data.type, absolute(child, root), tag);
            }
        }
    }

    /** Items of this rank's subtree in a tree rooted at {@code root}, blocks by relative rank. */
    private int span(int[] start, int root) {
        int v = relative(rank, root);
        int end = v == 0 ? size : Math.min(v + Integer.lowestOneBit(v), size);
        return start[end] - start[v];
    }

    /** Block starts for {@code m} items per rank. */
    private int[] uniform(int m) {
        int[] start = new int[size + 1];
        for (int i = 0; i <= size; i++) {
            start[i] = Math.multiplyExact(i, m);
        }
        return start;
    }

    private int relative(int r, int root) {
        return (r - root + size) % size;
    }

    private int absolute(int v, int root) {
        return (v + root) % size;
    }
}
