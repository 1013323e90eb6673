package mpi;

import dev.distvm.mpi.engine.Messenger;
import java.util.Arrays;

/**
 * An inter-communicator (MPI-1 section 5.6): two disjoint groups, the local one (the caller's) and
 * the remote one. Point-to-point calls name ranks of the REMOTE group: {@code Send(..., dest, ...)}
 * goes to remote rank {@code dest}, and a receive's {@code source} and {@code Status.source} are
 * remote ranks. {@link #Size()}, {@link #Rank()} and {@link #Group()} describe the local group.
 * Made by {@link Intracomm#Create_intercomm(Comm, int, int, int)}.
 *
 * <p>{@code Comm.group} is the local group; point-to-point reaches the remote group through
 * {@code Comm}'s peer hooks, overridden here. The context is agreed by both groups:
 * point-to-point uses {@code context}, and {@code context + 1} is kept for this class's own
 * collective steps ({@link #Merge}), which run over the union of both groups.
 */
public class Intercomm extends Comm {
    private final Group remoteGroup;
    /**
     * Whether the local group comes first in the union both sides use (the group whose rank 0 has
     * the lower world rank does): both sides must list the union the same way.
     */
    private final boolean localFirst;

    private Intercomm(Messenger messenger, Group localGroup, Group remoteGroup, int context) {
        super(messenger, localGroup, context);
        this.remoteGroup = remoteGroup;
        this.localFirst = localGroup.worldRank(0) < remoteGroup.worldRank(0);
    }

    /**
     * MPI_INTERCOMM_CREATE, as mpiJava defines it: a method of the peer communicator
     * {@code peer}, collective over {@code localComm} (and, through the leaders, over the remote
     * group). Every process of the local group passes the same {@code localLeader} (a rank of
     * {@code localComm}); {@code remoteLeader} and {@code tag} matter only at the local leader,
     * where {@code remoteLeader} is the remote leader's rank in {@code peer}, and {@code tag} is a
     * tag of {@code peer} that no other traffic between the leaders uses meanwhile.
     *
     * <ol>
     *   <li>each local group reserves a context with its own {@code newContext()};
     *   <li>the leaders swap, over {@code peer} with {@code tag}, that context and their groups;
     *   <li>each leader broadcasts the outcome to its group (errors included, so that a failure at
     *       a leader fails the whole group instead of leaving it waiting);
     *   <li>the larger of the two contexts is free at every process of both groups, so the union of
     *       the groups uses it, once, to agree on the inter-communicator's own context with
     *       {@code newContext()} (which also moves every member's context counter past it).
     * </ol>
     */
    static Intercomm create(Intracomm peer, Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        peer.checkUsable();
        if (!(localComm instanceof Intracomm local)) {
            throw peer.error(new MPIException(MPI.ERR_COMM, "local_comm must be an intra-communicator, got "
                    + (localComm == null ? "null" : localComm.getClass().getSimpleName())));
        }
        local.checkUsable();
        local.checkRank(localLeader, "local leader");
        int proposal = local.newContext();
        // outcome: error class (SUCCESS when all went well), agreed context, remote group size
        int[] outcome = new int[3];
        int[] remote = new int[0];
        MPIException leaderError = null;
        if (local.Rank() == localLeader) {
            try {
                int[] theirs = swapWithRemoteLeader(peer, local.group, proposal, remoteLeader, tag);
                remote = Arrays.copyOfRange(theirs, 1, theirs.length);
                checkDisjoint(peer, local.group, remote);
                outcome[1] = Math.max(proposal, theirs[0]);
                outcome[2] = remote.length;
            } catch (MPIException e) {
                leaderError = e;
                outcome[0] = e.getErrorClass();
            }
        }
        local.Bcast(outcome, 0, outcome.length, MPI.INT, localLeader);
        if (outcome[0] != MPI.SUCCESS) {
            throw leaderError != null ? leaderError : local.error(new MPIException(outcome[0],
                    "Create_intercomm failed at the local leader (rank " + localLeader + " of local_comm)"));
        }
        if (remote.length != outcome[2]) {
            remote = new int[outcome[2]];
        }
        local.Bcast(remote, 0, remote.length, MPI.INT, localLeader);
        Group localGroup = local.group;
        Group remoteGroup = new Group(remote, localGroup.myWorldRank());
        Intercomm provisional = new Intercomm(local.messenger, localGroup, remoteGroup, outcome[1]);
        int context = provisional.union().newContext();
        return Topology.inheritErrhandler(local, new Intercomm(local.messenger, localGroup, remoteGroup, context));
    }

    /**
     * The leaders' exchange: each sends {proposed context, world ranks of its group...} and
     * receives the other's. The length is learnt by probing, so one message each suffices.
     */
    private static int[] swapWithRemoteLeader(Intracomm peer, Group localGroup, int proposal, int remoteLeader, int tag)
            throws MPIException {
        peer.checkRank(remoteLeader, "remote leader");
        int[] members = localGroup.worldRanks();
        int[] mine = new int[members.length + 1];
        mine[0] = proposal;
        System.arraycopy(members, 0, mine, 1, members.length);
        Request sent = peer.Isend(mine, 0, mine.length, MPI.INT, remoteLeader, tag);
        int count = peer.Probe(remoteLeader, tag).Get_count(MPI.INT);
        int[] theirs = new int[count];
        peer.Recv(theirs, 0, count, MPI.INT, remoteLeader, tag);
        sent.Wait();
        if (count < 2) {
            throw peer.error(new MPIException(MPI.ERR_INTERN, "the remote leader's group description has "
                    + count + " integers; is another message using tag " + tag + "?"));
        }
        return theirs;
    }

    private static void checkDisjoint(Comm peer, Group localGroup, int[] remote) throws MPIException {
        for (int worldRank : remote) {
            if (localGroup.rankOfWorld(worldRank) != MPI.UNDEFINED) {
                throw peer.error(new MPIException(MPI.ERR_GROUP, "the local and remote groups of an inter-communicator "
                        + "must be disjoint, but the process of world rank " + worldRank + " is in both"));
            }
        }
    }

    /**
     * An intra-communicator over both groups (the first group's members, then the second's) that
     * runs its collectives on this inter-communicator's spare context {@code context + 1}. Used
     * only inside this class, for steps that every process of both groups takes.
     */
    private Intracomm union() {
        return new Intracomm(messenger, new Group(unionRanks(localFirst), group.myWorldRank()), context);
    }

    private int[] unionRanks(boolean localGroupFirst) {
        int[] first = (localGroupFirst ? group : remoteGroup).worldRanks();
        int[] second = (localGroupFirst ? remoteGroup : group).worldRanks();
        int[] union = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, union, first.length, second.length);
        return union;
    }

    /** Always true. */
    @Override
    public boolean Test_inter() throws MPIException {
        return true;
    }

    // point-to-point names ranks of the remote group

    @Override
    int worldRankOfPeer(int rank) {
        return remoteGroup.worldRank(rank);
    }

    @Override
    int peerRankOfWorld(int worldRank) {
        return remoteGroup.rankOfWorld(worldRank);
    }

    @Override
    int peerCount() throws MPIException {
        return remoteGroup.Size();
    }

    /** MPI_COMM_REMOTE_SIZE: the size of the remote group. */
    public int Remote_size() throws MPIException {
        checkUsable();
        return remoteGroup.Size();
    }

    /** MPI_COMM_REMOTE_GROUP: the remote group, whose ranks point-to-point calls use. */
    public Group Remote_group() throws MPIException {
        checkUsable();
        return remoteGroup;
    }

    /**
     * MPI_INTERCOMM_MERGE, collective over both groups: an intra-communicator of all their
     * processes. Each group keeps its internal order; the group whose processes pass
     * {@code high = false} comes first. When both groups pass the same value (which MPI leaves
     * open) both sides agree on one order all the same: the group whose rank 0 has the lower
     * world rank first. All processes of one group must pass the same {@code high}.
     */
    public Intracomm Merge(boolean high) throws MPIException {
        checkUsable();
        Intracomm both = union();
        // slot 0 for the union's first group, 1 for the second; MAX spreads each group's choice
        int[] mine = new int[2];
        mine[localFirst ? 0 : 1] = high ? 1 : 0;
        int[] highs = new int[2];
        both.Allreduce(mine, 0, highs, 0, 2, MPI.INT, MPI.MAX);
        boolean keepUnionOrder = !(highs[0] == 1 && highs[1] == 0);
        boolean localGroupFirst = keepUnionOrder == localFirst;
        int context = both.newContext();
        return Topology.inheritErrhandler(this,
                new Intracomm(messenger, new Group(unionRanks(localGroupFirst), group.myWorldRank()), context));
    }

    /**
     * MPI_COMM_DUP, collective over both groups: the same groups with a context of their own
     * (agreed over the union, like Merge's).
     */
    @Override
    public Intercomm Dup() throws MPIException {
        checkUsable();
        return Topology.inheritErrhandler(this, new Intercomm(messenger, group, remoteGroup, union().newContext()));
    }
}
