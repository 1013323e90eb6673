package mpitest.topology;

import static mpitest.topology.Expect.equal;
import static mpitest.topology.Expect.that;

import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * An inter-communicator between the even and the odd ranks (Split by parity, then
 * Create_intercomm on COMM_WORLD with the two rank-0s as leaders): sizes and groups, messages
 * across addressed by remote rank, Probe, two inter-communicators kept apart, and Merge in both
 * orders and with a tie. Needs an even number of ranks.
 */
public class InterCommunicator {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int size = world.Size();
        int rank = world.Rank();
        Expect.who = "rank " + rank;
        that(size % 2 == 0, "needs an even number of ranks, got " + size);
        int half = size / 2;
        int parity = rank % 2;
        int other = 1 - parity;

        Intracomm local = world.Split(parity, rank);
        // world ranks 0 (even) and 1 (odd) lead; each names the other's rank in COMM_WORLD
        Intercomm inter = world.Create_intercomm(local, 0, other, 99);
        that(inter.Test_inter(), "Test_inter");
        that(!local.Test_inter(), "an intra-communicator is not inter");
        equal(half, inter.Size(), "local size");
        equal(rank / 2, inter.Rank(), "local rank");
        equal(half, inter.Remote_size(), "remote size");
        int[] remoteRanks = new int[half];
        int[] remoteWorld = new int[half];
        int[] localWorld = new int[half];
        for (int i = 0; i < half; i++) {
            remoteRanks[i] = i;
            remoteWorld[i] = 2 * i + other;
            localWorld[i] = 2 * i + parity;
        }
        Group worldGroup = world.Group();
        equal(remoteWorld, Group.Translate_ranks(inter.Remote_group(), remoteRanks, worldGroup), "remote group");
        equal(localWorld, Group.Translate_ranks(inter.Group(), remoteRanks, worldGroup), "local group");
        equal(MPI.UNDEFINED, inter.Remote_group().Rank(), "the caller is not in the remote group");

        // local rank i and remote rank i talk; the even side speaks first
        int partner = inter.Rank();
        int[] value = new int[1];
        if (parity == 0) {
            inter.Send(new int[] {rank * 10}, 0, 1, MPI.INT, partner, 5);
            Status status = inter.Recv(value, 0, 1, MPI.INT, partner, 6);
            equal(partner, status.source, "source is a remote rank");
        } else {
            Status status = inter.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, 5);
            equal(partner, status.source, "ANY_SOURCE reports a remote rank");
            inter.Send(new int[] {rank * 10}, 0, 1, MPI.INT, partner, 6);
        }
        equal(remoteWorld[partner] * 10, value[0], "value from the partner");

        // every odd process writes to remote rank 0 (world rank 0), which probes for each
        if (parity == 1) {
            inter.Send(new int[] {rank}, 0, 1, MPI.INT, 0, 8);
        } else if (rank == 0) {
            boolean[] seen = new boolean[half];
            for (int i = 0; i < half; i++) {
                Status probed = inter.Probe(MPI.ANY_SOURCE, 8);
                that(probed.source >= 0 && probed.source < half && !seen[probed.source], "probed source " + probed.source);
                seen[probed.source] = true;
                inter.Recv(value, 0, 1, MPI.INT, probed.source, 8);
                equal(remoteWorld[probed.source], value[0], "probed message's value");
            }
        }

        // a second inter-communicator: same tags, different context. The even side makes
        // communicators of its own first, so the two groups arrive with different next contexts.
        if (parity == 0) {
            local.Dup();
            local.Dup();
        }
        Intercomm second = world.Create_intercomm(local, 0, other, 98);
        if (parity == 0) {
            second.Send(new int[] {2}, 0, 1, MPI.INT, partner, 9);
            inter.Send(new int[] {1}, 0, 1, MPI.INT, partner, 9);
        } else {
            inter.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            equal(1, value[0], "the first inter-communicator's message");
            second.Recv(value, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            equal(2, value[0], "the second inter-communicator's message");
        }

        // a duplicate is an inter-communicator of the same groups, apart from the original
        Intercomm copy = inter.Dup();
        that(copy.Test_inter(), "Dup of an inter-communicator is one");
        equal(half, copy.Remote_size(), "Dup keeps the remote group");
        if (parity == 0) {
            copy.Send(new int[] {4}, 0, 1, MPI.INT, partner, 10);
            inter.Send(new int[] {3}, 0, 1, MPI.INT, partner, 10);
        } else {
            inter.Recv(value, 0, 1, MPI.INT, partner, 10);
            equal(3, value[0], "the original's message");
            copy.Recv(value, 0, 1, MPI.INT, partner, 10);
            equal(4, value[0], "the duplicate's message");
        }

        // Merge: the group passing high = false comes first
        checkMerge(inter.Merge(parity == 1), rank, half, true);
        checkMerge(inter.Merge(parity == 0), rank, half, false);
        // a tie: MPI leaves the order open, but everyone must agree on it
        Intracomm tie = inter.Merge(true);
        int[] worldOfFirst = Group.Translate_ranks(tie.Group(), new int[] {0}, worldGroup);
        int[] lowest = new int[1];
        int[] highest = new int[1];
        tie.Allreduce(worldOfFirst, 0, lowest, 0, 1, MPI.INT, MPI.MIN);
        tie.Allreduce(worldOfFirst, 0, highest, 0, 1, MPI.INT, MPI.MAX);
        equal(lowest[0], highest[0], "every process sees the same rank 0 after a tied Merge");
        equal(size, tie.Size(), "size after a tied Merge");
        MPI.Finalize();
    }

    private static void checkMerge(Intracomm merged, int rank, int half, boolean evensFirst) throws Exception {
        String order = evensFirst ? "evens first" : "odds first";
        equal(2 * half, merged.Size(), "merged size (" + order + ")");
        boolean inFirst = (rank % 2 == 0) == evensFirst;
        equal((inFirst ? 0 : half) + rank / 2, merged.Rank(), "merged rank (" + order + ")");
        that(!merged.Test_inter(), "a merged communicator is an intra-communicator");
        // the merged communicator works: a ring shift of world ranks
        int n = merged.Size();
        int me = merged.Rank();
        int[] got = new int[1];
        merged.Sendrecv(new int[] {rank}, 0, 1, MPI.INT, (me + 1) % n, 21, got, 0, 1, MPI.INT, (me - 1 + n) % n, 21);
        int before = (me - 1 + n) % n;
        boolean beforeIsEven = (before < half) == evensFirst;
        equal(2 * (before % half) + (beforeIsEven ? 0 : 1), got[0], "world rank of the merged predecessor (" + order + ")");
        int[] sum = new int[1];
        merged.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        equal((long) n * (n - 1) / 2, sum[0], "merged ranks are 0.." + (n - 1));
    }
}
