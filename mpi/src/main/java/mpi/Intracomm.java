package mpi;

import dev.distvm.mpi.engine.Messenger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * An intra-communicator: point-to-point (from {@link Comm}), collective communication among its
 * group, and the making of new communicators.
 *
 * <p>Collectives must be called by every member, in the same order, with matching arguments
 * (the same root, count and operation; type signatures that agree). Their messages travel on the
 * communicator's collective context ({@code context + 1}), so they never match point-to-point
 * messages. Misuse that one process can see on its own (an invalid root, a negative count, count
 * arrays shorter than the group, a buffer too small for its items, an operation not defined on
 * the datatype) raises an {@link MPIException} before anything is sent. Offsets and
 * displacements count items of the datatype as mpiJava defines: item {@code i} of a buffer starts
 * {@code i * Extent()} base elements after the offset.
 *
 * <p>Algorithms (see {@link CollectiveAlgorithms}): Barrier by dissemination; Bcast, Gather,
 * Scatter and Reduce by binomial trees; Gatherv and Scatterv directly between the root and each
 * rank (only the root knows the counts); Allgather(v) by recursive doubling (power-of-two sizes)
 * or a ring; Alltoall(v) by pairwise exchange; Allreduce by recursive doubling, or ring
 * reduce-scatter + ring allgather for vectors of 64 KiB and more; Reduce_scatter by a ring for
 * large vectors, else reduce and binomial scatter; Scan by recursive doubling. Non-commutative
 * operations are combined in rank order: Reduce then uses a tree rooted at rank 0 plus one
 * message to the root, and Allreduce, Reduce_scatter and Scan use their rank-ordered forms.
 */
public class Intracomm extends Comm {
    static final int WORLD_CONTEXT = 0;
    static final int SELF_CONTEXT = 2;
    private static final int FIRST_FREE_CONTEXT = 4;

    /**
     * This process's lowest context id not yet used by any communicator it belongs to. Static is
     * per process here: in threads mode each rank has its own class loader, hence its own copy.
     */
    private static int nextContext = FIRST_FREE_CONTEXT;

    Intracomm(Messenger messenger, Group group, int context) {
        super(messenger, group, context);
    }

    // ---- communicator management --------------------------------------------------------------

    /**
     * A new communicator with the same group and a new context ({@code MPI_COMM_DUP}): the same
     * processes, but messages on one never match receives on the other. Collective; the error
     * handler is inherited.
     */
    @Override
    public Intracomm Dup() throws MPIException {
        checkUsable();
        return derive(group, newContext());
    }

    /**
     * Partitions the group by {@code colour} ({@code MPI_COMM_SPLIT}): the processes that pass the
     * same colour form a new communicator, ranked by {@code key} and then by their rank here.
     * Collective over this communicator.
     *
     * @param colour a non-negative colour, or {@code MPI.UNDEFINED} to join no new communicator
     * @param key orders the ranks in the new communicator
     * @return the caller's new communicator, or null for colour {@code MPI.UNDEFINED}
     * @throws MPIException ERR_ARG for a negative colour other than UNDEFINED
     */
    public Intracomm Split(int colour, int key) throws MPIException {
        checkUsable();
        if (colour < 0 && colour != MPI.UNDEFINED) {
            throw error(new MPIException(MPI.ERR_ARG, "colour " + colour + " is negative; a colour must be >= 0 or MPI.UNDEFINED"));
        }
        int size = Size();
        // One Allgather serves both the partition and the context: every member sees every proposal.
        int[] mine = {colour, key, proposeContext()};
        int[] all = new int[3 * size];
        Allgather(mine, 0, 3, MPI.INT, all, 0, 3, MPI.INT);
        int agreed = 0;
        for (int i = 0; i < size; i++) {
            agreed = Math.max(agreed, all[3 * i + 2]);
        }
        claimContext(agreed);
        if (colour == MPI.UNDEFINED) {
            return null;
        }
        List<Integer> members = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (all[3 * i] == colour) {
                members.add(i);
            }
        }
        members.sort(Comparator.<Integer>comparingInt(i -> all[3 * i + 1]).thenComparingInt(i -> i));
        int[] worldRanks = members.stream().mapToInt(group::worldRank).toArray();
        return derive(new Group(worldRanks, group.myWorldRank()), agreed);
    }

    /**
     * A communicator of {@code group}, a subset of this communicator's group
     * ({@code MPI_COMM_CREATE}). Collective over this communicator: every member calls it with the
     * same group.
     *
     * @return the new communicator, or null for a process that is not in {@code group}
     * @throws MPIException ERR_GROUP if {@code group} is null or has a process outside this communicator
     */
    public Intracomm Create(Group group) throws MPIException {
        checkUsable();
        if (group == null) {
            throw error(new MPIException(MPI.ERR_GROUP, "the group of Create is null"));
        }
        int[] worldRanks = group.worldRanks();
        for (int w : worldRanks) {
            if (this.group.rankOfWorld(w) == MPI.UNDEFINED) {
                throw error(new MPIException(MPI.ERR_GROUP, "the group of Create has world rank " + w
                        + ", which is not in this communicator: it must be a subset of the communicator's group"));
            }
        }
        int context = newContext();
        Group created = new Group(worldRanks, this.group.myWorldRank());
        return created.Rank() == MPI.UNDEFINED ? null : derive(created, context);
    }

    /** mpiJava's spelling of {@link #Create(Group)}. */
    public Intracomm Creat(Group group) throws MPIException {
        return Create(group);
    }

    /** A communicator with a Cartesian topology over this one's processes; see {@link Cartcomm}. */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) throws MPIException { return Cartcomm.create(this, dims, periods, reorder); }

    /** A communicator with a graph topology over this one's processes; see {@link Graphcomm}. */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) throws MPIException { return Graphcomm.create(this, index, edges, reorder); }

    /**
     * An inter-communicator between {@code local_comm} and a remote group, with this communicator
     * as the peer communicator in which the two leaders meet ({@code MPI_INTERCOMM_CREATE}).
     */
    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) throws MPIException { return Intercomm.create(this, local_comm, local_leader, remote_leader, tag); }

    /**
     * A fresh context id (and the one after it) that no communicator of any member uses, agreed
     * by all members: each proposes its lowest unused id, all take the maximum, and each moves its
     * own counter past the pair. Collective over this communicator.
     */
    int newContext() throws MPIException {
        int[] proposal = {proposeContext()};
        Allreduce(proposal, 0, proposal, 0, 1, MPI.INT, MPI.MAX);
        return claimContext(proposal[0]);
    }

    private static synchronized int proposeContext() {
        return nextContext;
    }

    private static synchronized int claimContext(int agreed) {
        nextContext = Math.max(nextContext, agreed + 2);
        return agreed;
    }

    private Intracomm derive(Group newGroup, int newContext) throws MPIException {
        Intracomm created = new Intracomm(messenger, newGroup, newContext);
        created.Errhandler_set(Errorhandler_get());
        return created;
    }

    // ---- collective communication -------------------------------------------------------------

    /** Blocks until every member has called it ({@code MPI_BARRIER}). */
    public void Barrier() throws MPIException {
        checkUsable();
        algorithms().barrier();
    }

    /**
     * Sends {@code count} items of {@code buf} from {@code offset} at the root to the same place
     * at every other member ({@code MPI_BCAST}).
     *
     * @throws MPIException ERR_ROOT, ERR_COUNT, or the buffer's check
     */
    public void Bcast(Object buf, int offset, int count, Datatype type, int root) throws MPIException {
        checkUsable();
        checkRoot(root);
        checkBuffer(buf, offset, count, type, "buf");
        algorithms().bcast(buf, offset, count, type, root);
    }

    /**
     * Each member sends {@code sendcount} items to the root, which stores the block of rank
     * {@code i} at item {@code i * recvcount} of {@code recvbuf} from {@code recvoffset}
     * ({@code MPI_GATHER}). The receive arguments matter at the root only.
     */
    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkUsable();
        checkRoot(root);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "sendbuf");
        if (Rank() == root) {
            checkBuffer(recvbuf, recvoffset, blocks(Size(), recvcount, "recvcount"), recvtype, "recvbuf");
            checkSignatures(sendcount, sendtype, recvcount, recvtype);
        }
        algorithms().gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
    }

    /**
     * Gather with a count per member: rank {@code i}'s items go to item {@code displs[i]} of
     * {@code recvbuf} from {@code recvoffset} ({@code MPI_GATHERV}). The receive arguments matter
     * at the root only.
     *
     * @throws MPIException ERR_ARG if {@code recvcount} or {@code displs} has fewer entries than the group
     */
    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        checkUsable();
        checkRoot(root);
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "sendbuf");
        if (Rank() == root) {
            checkBlocks(recvbuf, recvoffset, recvcount, displs, recvtype, "recvbuf", "recvcount");
        }
        algorithms().gatherv(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, displs, recvtype, root);
    }

    /**
     * The inverse of Gather: the root sends block {@code i} (items from {@code i * sendcount}) to
     * rank {@code i} ({@code MPI_SCATTER}). The send arguments matter at the root only.
     */
    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkUsable();
        checkRoot(root);
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype, "recvbuf");
        if (Rank() == root) {
            checkBuffer(sendbuf, sendoffset, blocks(Size(), sendcount, "sendcount"), sendtype, "sendbuf");
            checkSignatures(sendcount, sendtype, recvcount, recvtype);
        }
        algorithms().scatter(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
    }

    /**
     * The inverse of Gatherv: rank {@code i} receives {@code sendcount[i]} items from item
     * {@code displs[i]} of the root's {@code sendbuf} ({@code MPI_SCATTERV}).
     */
    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        checkUsable();
        checkRoot(root);
        checkBuffer(recvbuf, recvoffset, recvcount, recvtype, "recvbuf");
        if (Rank() == root) {
            checkBlocks(sendbuf, sendoffset, sendcount, displs, sendtype, "sendbuf", "sendcount");
        }
        algorithms().scatterv(sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf, recvoffset, recvcount, recvtype, root);
    }

    /** Gather to every member ({@code MPI_ALLGATHER}): rank {@code i}'s block lands at item {@code i * recvcount}. */
    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        checkUsable();
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "sendbuf");
        checkBuffer(recvbuf, recvoffset, blocks(Size(), recvcount, "recvcount"), recvtype, "recvbuf");
        checkSignatures(sendcount, sendtype, recvcount, recvtype);
        algorithms().allgather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, recvtype);
    }

    /** Gatherv to every member ({@code MPI_ALLGATHERV}). */
    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        checkUsable();
        checkBuffer(sendbuf, sendoffset, sendcount, sendtype, "sendbuf");
        checkBlocks(recvbuf, recvoffset, recvcount, displs, recvtype, "recvbuf", "recvcount");
        checkSignatures(sendcount, sendtype, recvcount[Rank()], recvtype);
        algorithms().allgatherv(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, displs, recvtype);
    }

    /**
     * Every member sends block {@code j} (items from {@code j * sendcount}) to rank {@code j} and
     * receives rank {@code i}'s block at item {@code i * recvcount} ({@code MPI_ALLTOALL}).
     */
    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        checkUsable();
        int size = Size();
        checkBuffer(sendbuf, sendoffset, blocks(size, sendcount, "sendcount"), sendtype, "sendbuf");
        checkBuffer(recvbuf, recvoffset, blocks(size, recvcount, "recvcount"), recvtype, "recvbuf");
        int[] sendcounts = new int[size];
        int[] recvcounts = new int[size];
        int[] sdispls = new int[size];
        int[] rdispls = new int[size];
        Arrays.fill(sendcounts, sendcount);
        Arrays.fill(recvcounts, recvcount);
        for (int i = 0; i < size; i++) {
            sdispls[i] = i * sendcount;
            rdispls[i] = i * recvcount;
        }
        algorithms().alltoallv(sendbuf, sendoffset, sendcounts, sdispls, sendtype, recvbuf, recvoffset, recvcounts, rdispls, recvtype);
    }

    /** Alltoall with a count and displacement per member on each side ({@code MPI_ALLTOALLV}). */
    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        checkUsable();
        checkBlocks(sendbuf, sendoffset, sendcount, sdispls, sendtype, "sendbuf", "sendcount");
        checkBlocks(recvbuf, recvoffset, recvcount, rdispls, recvtype, "recvbuf", "recvcount");
        algorithms().alltoallv(sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf, recvoffset, recvcount, rdispls, recvtype);
    }

    /**
     * Combines the members' {@code count} items element-wise with {@code op}, in rank order, into
     * the root's {@code recvbuf} ({@code MPI_REDUCE}). {@code recvbuf} matters at the root only.
     *
     * @throws MPIException ERR_OP if {@code op} is not defined on {@code datatype}, ERR_ROOT, ERR_COUNT, or a buffer's check
     */
    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) throws MPIException {
        checkUsable();
        checkRoot(root);
        checkReduction(sendbuf, sendoffset, count, datatype, op);
        if (Rank() == root) {
            checkBuffer(recvbuf, recvoffset, count, datatype, "recvbuf");
        }
        algorithms().reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
    }

    /** Reduce with the result at every member ({@code MPI_ALLREDUCE}). */
    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                          Op op) throws MPIException {
        checkUsable();
        checkReduction(sendbuf, sendoffset, count, datatype, op);
        checkBuffer(recvbuf, recvoffset, count, datatype, "recvbuf");
        algorithms().allreduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    /**
     * Reduces {@code sum(recvcounts)} items and gives rank {@code i} the {@code recvcounts[i]}
     * items that follow the first {@code recvcounts[0] + ... + recvcounts[i-1]}
     * ({@code MPI_REDUCE_SCATTER}).
     *
     * @throws MPIException ERR_ARG if {@code recvcounts} has fewer entries than the group
     */
    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) throws MPIException {
        checkUsable();
        checkCounts(recvcounts, "recvcounts");
        long total = 0;
        for (int i = 0; i < Size(); i++) {
            total += recvcounts[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw error(new MPIException(MPI.ERR_COUNT, "recvcounts add up to " + total + " items, more than " + Integer.MAX_VALUE));
        }
        checkReduction(sendbuf, sendoffset, (int) total, datatype, op);
        checkBuffer(recvbuf, recvoffset, recvcounts[Rank()], datatype, "recvbuf");
        algorithms().reduceScatter(sendbuf, sendoffset, recvbuf, recvoffset, recvcounts, datatype, op);
    }

    /**
     * Inclusive prefix reduction ({@code MPI_SCAN}): rank {@code i} receives the reduction of ranks
     * 0 to {@code i}, combined in rank order.
     */
    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op)
            throws MPIException {
        checkUsable();
        checkReduction(sendbuf, sendoffset, count, datatype, op);
        checkBuffer(recvbuf, recvoffset, count, datatype, "recvbuf");
        algorithms().scan(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
    }

    // ---- collective messages ------------------------------------------------------------------

    /** Sends on the collective context; sends are eager, so this returns at once. */
    void collectiveSend(Object buf, int offset, int count, Datatype type, int dest, int tag) throws MPIException {
        new Request(this, send(context + 1, buf, offset, count, type, dest, tag, false)).Wait();
    }

    /** Posts a receive on the collective context. */
    Request collectiveReceive(Object buf, int offset, int count, Datatype type, int source, int tag) {
        return new Request(this, receive(context + 1, buf, offset, count, type, source, tag));
    }

    private CollectiveAlgorithms algorithms() throws MPIException {
        return new CollectiveAlgorithms(this);
    }

    // ---- argument checks ----------------------------------------------------------------------

    private void checkRoot(int root) throws MPIException {
        if (root < 0 || root >= Size()) {
            throw error(new MPIException(MPI.ERR_ROOT, "root " + root + " is not a rank of this communicator; valid roots are 0.."
                    + (Size() - 1)));
        }
    }

    /** {@code count} items of {@code type} fit {@code buf} from {@code offset}; the check names the argument. */
    private void checkBuffer(Object buf, int offset, int count, Datatype type, String what) throws MPIException {
        if (count < 0) {
            throw error(new MPIException(MPI.ERR_COUNT, "count " + count + " for " + what + " is negative"));
        }
        if (type == null) {
            throw error(new MPIException(MPI.ERR_TYPE, "the datatype of " + what + " is null"));
        }
        try {
            type.layout.check(buf, offset, count);
        } catch (MPIException e) {
            throw error(new MPIException(e.getErrorClass(), what + ": " + e.getMessage(), e));
        }
    }

    /** Items of {@code size} blocks of {@code count}, checked. */
    private int blocks(int size, int count, String what) throws MPIException {
        if (count < 0) {
            throw error(new MPIException(MPI.ERR_COUNT, what + " " + count + " is negative"));
        }
        long items = (long) size * count;
        if (items > Integer.MAX_VALUE) {
            throw error(new MPIException(MPI.ERR_COUNT, what + " " + count + " for " + size + " processes is " + items
                    + " items, more than " + Integer.MAX_VALUE));
        }
        return (int) items;
    }

    private void checkCounts(int[] counts, String what) throws MPIException {
        int size = Size();
        if (counts == null || counts.length < size) {
            throw error(new MPIException(MPI.ERR_ARG, what + " has " + (counts == null ? "no" : counts.length + "")
                    + " entries; it needs one per process, " + size));
        }
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw error(new MPIException(MPI.ERR_COUNT, what + "[" + i + "] is " + counts[i] + "; counts must not be negative"));
            }
        }
    }

    /** Per-process blocks {@code counts[i]} items at item {@code displs[i]} from {@code offset}, all inside {@code buf}. */
    private void checkBlocks(Object buf, int offset, int[] counts, int[] displs, Datatype type, String what, String countsName)
            throws MPIException {
        checkCounts(counts, countsName);
        int size = Size();
        if (displs == null || displs.length < size) {
            throw error(new MPIException(MPI.ERR_ARG, "displs for " + what + " has " + (displs == null ? "no" : displs.length + "")
                    + " entries; it needs one per process, " + size));
        }
        if (type == null) {
            throw error(new MPIException(MPI.ERR_TYPE, "the datatype of " + what + " is null"));
        }
        int extent = type.Extent();
        for (int i = 0; i < size; i++) {
            checkBuffer(buf, offset + displs[i] * extent, counts[i], type, what + " block " + i + " (displs[" + i + "] = " + displs[i] + ")");
        }
    }

    /** The two sides of this process's own block must hold the same number of base elements of the same base type. */
    private void checkSignatures(int sendcount, Datatype sendtype, int recvcount, Datatype recvtype) throws MPIException {
        if (sendtype.layout.baseType() != recvtype.layout.baseType() || sendtype.layout.elements(sendcount) != recvtype.layout.elements(recvcount)) {
            throw error(new MPIException(MPI.ERR_TYPE, sendcount + " items of " + sendtype + " (" + sendtype.layout.elements(sendcount)
                    + " elements of " + BaseType.name(sendtype.layout.baseType()) + ") do not match " + recvcount + " items of "
                    + recvtype + " (" + recvtype.layout.elements(recvcount) + " elements of " + BaseType.name(recvtype.layout.baseType())
                    + "); MPI requires equal type signatures"));
        }
    }

    private void checkReduction(Object sendbuf, int sendoffset, int count, Datatype datatype, Op op) throws MPIException {
        checkBuffer(sendbuf, sendoffset, count, datatype, "sendbuf");
        if (op == null) {
            throw error(new MPIException(MPI.ERR_OP, "the operation is null"));
        }
        try {
            op.checkUsable(datatype);
        } catch (MPIException e) {
            throw error(e);
        }
    }
}
