package mpitest.collectives;

import mpitest.Check;

import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Dup, Split, Create (and Creat): the new communicators have the right members and ranks, work
 * for collectives, and their messages never mix with the parent's, point-to-point or collective.
 */
public final class Communicators {
    private static int rank;
    private static int size;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.Rank();
        size = world.Size();
        List<Intracomm> made = new ArrayList<>();
        made.add(world);
        made.add(MPI.COMM_SELF);

        Intracomm dup = world.Dup();
        made.add(dup);
        Check.equal(MPI.CONGRUENT, Comm.Compare(world, dup), "Compare(world, Dup)");
        Check.equal(rank, dup.Rank(), "rank in Dup");
        Check.equal(size, dup.Size(), "size of Dup");
        separateTraffic(world, dup, "world/Dup");
        Intracomm cloned = (Intracomm) world.clone();
        made.add(cloned);
        separateTraffic(dup, cloned, "Dup/clone");

        // Split by parity, ranked in reverse by key; the last rank opts out when there are 3 or more.
        boolean optOut = size >= 3 && rank == size - 1;
        Intracomm parity = world.Split(optOut ? MPI.UNDEFINED : rank % 2, -rank);
        if (optOut) {
            Check.that(parity == null, "Split with MPI.UNDEFINED gives null");
        } else {
            made.add(parity);
            List<Integer> members = new ArrayList<>();
            for (int r = size - 1; r >= 0; r--) {
                if (r % 2 == rank % 2 && !(size >= 3 && r == size - 1)) {
                    members.add(r);
                }
            }
            Check.equal(members.size(), parity.Size(), "size of the parity communicator");
            Check.equal(members.indexOf(rank), parity.Rank(), "rank in the parity communicator (keys reverse the order)");
            int[] worldRanks = new int[members.size()];
            parity.Allgather(new int[] {rank}, 0, 1, MPI.INT, worldRanks, 0, 1, MPI.INT);
            Check.equal(members.stream().mapToInt(Integer::intValue).toArray(), worldRanks, "members of the parity communicator");
            Check.equal(members, toList(Group.Translate_ranks(parity.Group(), range(parity.Size()), world.Group())),
                    "Translate_ranks of the parity communicator");
        }
        separateTraffic(world, parity, "world/Split");

        // Equal colours and keys keep the parent's order; a split of a split; a Dup of a split.
        Intracomm same = world.Split(7, 0);
        made.add(same);
        Check.equal(rank, same.Rank(), "rank after a Split with equal keys");
        Intracomm halves = same.Split(rank < size / 2 ? 0 : 1, 0);
        made.add(halves);
        Intracomm halvesDup = halves.Dup();
        made.add(halvesDup);
        int[] sum = new int[1];
        halvesDup.Allreduce(new int[] {rank}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int lo = rank < size / 2 ? 0 : size / 2;
        int hi = rank < size / 2 ? size / 2 : size;
        Check.equal((lo + hi - 1) * (hi - lo) / 2, sum[0], "Allreduce over a Dup of a split of a split");

        // Create from the even ranks; odd ranks get null. Creat is the same.
        int[] evens = new int[(size + 1) / 2];
        for (int i = 0; i < evens.length; i++) {
            evens[i] = 2 * i;
        }
        Group evenGroup = world.Group().Incl(evens);
        Intracomm even = world.Create(evenGroup);
        Intracomm evenToo = world.Creat(evenGroup);
        if (rank % 2 == 1) {
            Check.that(even == null && evenToo == null, "Create gives null outside the group");
        } else {
            made.add(even);
            made.add(evenToo);
            Check.equal(rank / 2, even.Rank(), "rank in the even communicator");
            Check.equal(evens.length, even.Size(), "size of the even communicator");
            int[] total = new int[1];
            even.Allreduce(new int[] {rank}, 0, total, 0, 1, MPI.INT, MPI.SUM);
            Check.equal(evens.length * (evens.length - 1), total[0], "Allreduce over the even communicator");
            separateTraffic(even, evenToo, "Create/Creat");
        }
        separateTraffic(world, even, "world/Create");

        // Many duplicates: contexts keep coming, all distinct, all working.
        Intracomm chain = world;
        for (int i = 0; i < 12; i++) {
            chain = chain.Dup();
            made.add(chain);
        }
        int[] one = new int[1];
        chain.Allreduce(new int[] {1}, 0, one, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(size, one[0], "Allreduce over the 12th Dup");

        for (int i = 0; i < made.size(); i++) {
            for (int j = i + 1; j < made.size(); j++) {
                Check.that(Comm.Compare(made.get(i), made.get(j)) != MPI.IDENT,
                        "communicators " + i + " and " + j + " share a context");
            }
        }

        // Point-to-point on a communicator does not disturb its collectives, and the reverse.
        if (size >= 2) {
            if (rank == 0) {
                world.Send(new int[] {42}, 0, 1, MPI.INT, 1, 0);
            }
            int[] value = {rank == 0 ? 99 : -1};
            world.Bcast(value, 0, 1, MPI.INT, 0);
            Check.equal(99, value[0], "Bcast with a point-to-point message pending");
            if (rank == 1) {
                int[] got = new int[1];
                Status status = world.Recv(got, 0, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                Check.equal(42, got[0], "point-to-point message after a Bcast");
                Check.equal(0, status.source, "its source");
            }
        }

        dup.Free();
        Check.fails(MPI.ERR_COMM, "Barrier on a freed communicator", dup::Barrier);
        world.Barrier();
        MPI.Finalize();
    }

    /**
     * Called by every member of {@code a}; {@code b} is a communicator over some of them (null
     * for the others). b's first rank sends to its last on both communicators with the same tag,
     * on {@code a} first; the receiver takes b's message first, and each receive must get its own
     * communicator's message. Then a Bcast on b and one on a, whose messages travel between the
     * same processes with the same tag: each must deliver its own value.
     */
    private static void separateTraffic(Intracomm a, Intracomm b, String what) throws MPIException {
        if (b != null) {
            int from = 0;
            int to = b.Size() - 1;
            int aFrom = Group.Translate_ranks(b.Group(), new int[] {from}, a.Group())[0];
            int aTo = Group.Translate_ranks(b.Group(), new int[] {to}, a.Group())[0];
            if (from != to) {
                if (b.Rank() == from) {
                    a.Send(new int[] {1}, 0, 1, MPI.INT, aTo, 3);
                    b.Send(new int[] {2}, 0, 1, MPI.INT, to, 3);
                }
                if (b.Rank() == to) {
                    int[] got = new int[1];
                    b.Recv(got, 0, 1, MPI.INT, from, 3);
                    Check.equal(2, got[0], what + ": message on the second communicator");
                    a.Recv(got, 0, 1, MPI.INT, aFrom, 3);
                    Check.equal(1, got[0], what + ": message on the first communicator");
                }
            }
            int[] y = {b.Rank() == to ? 20 : 0};
            b.Bcast(y, 0, 1, MPI.INT, to);
            Check.equal(20, y[0], what + ": Bcast on the second communicator");
        }
        int[] x = {a.Rank() == 0 ? 10 : 0};
        a.Bcast(x, 0, 1, MPI.INT, 0);
        Check.equal(10, x[0], what + ": Bcast on the first communicator");
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static List<Integer> toList(int[] values) {
        List<Integer> list = new ArrayList<>();
        for (int v : values) {
            list.add(v);
        }
        return list;
    }
}
