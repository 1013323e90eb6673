package mpitest.environment;

import static mpitest.Check.equal;
import static mpitest.Check.fails;
import static mpitest.Check.that;

import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Status;

/**
 * The environment and the calls no other program covers: Initialized, Wtime/Wtick, processor
 * name, error handlers, attributes, every Group operation, Comm.Compare, inquiry calls, Pack and
 * Unpack across ranks, Get_elements of a derived type, and use after Finalize.
 */
public final class Environment {
    private Environment() {}

    public static void main(String[] args) throws Exception {
        that(!MPI.Initialized(), "not initialized before Init");
        MPI.Init(args);
        that(MPI.Initialized(), "initialized after Init");
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();

        double before = MPI.Wtime();
        that(MPI.Wtick() > 0 && MPI.Wtick() < 1e-3, "Wtick is a fine resolution");
        that(MPI.Wtime() >= before, "Wtime does not go back");
        that(!MPI.Get_processor_name().isEmpty(), "a processor name");

        inquiries(world, rank, size);
        attributes(world);
        errorHandlers(world, size);
        groups(world, rank, size);
        packAcrossRanks(world, rank, size);
        elementsOfDerivedType(world, rank, size);

        MPI.Finalize();
        fails(MPI.ERR_OTHER, "a call after Finalize", () -> world.Send(new int[1], 0, 1, MPI.INT, 0, 0));
    }

    private static void inquiries(Intracomm world, int rank, int size) throws Exception {
        equal(1, MPI.COMM_SELF.Size(), "COMM_SELF size");
        equal(0, MPI.COMM_SELF.Rank(), "COMM_SELF rank");
        that(!world.Test_inter(), "COMM_WORLD is not an inter-communicator");
        equal(MPI.UNDEFINED, world.Topo_test(), "COMM_WORLD has no topology");
        equal(MPI.IDENT, Comm.Compare(world, world), "a communicator is identical to itself");
        Intracomm copy = world.Dup();
        equal(MPI.CONGRUENT, Comm.Compare(world, copy), "a duplicate is congruent");
        Intracomm reversed = world.Split(0, size - rank);
        equal(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR, Comm.Compare(world, reversed), "reversed order is similar");
        copy.Free();
        that(copy.Is_null(), "a freed communicator is null");
        fails(MPI.ERR_COMM, "send on a freed communicator", () -> copy.Send(new int[1], 0, 1, MPI.INT, 0, 0));
    }

    private static void attributes(Intracomm world) throws Exception {
        that((Integer) world.Attr_get(MPI.TAG_UB) >= 32767, "TAG_UB is at least 32767");
        equal(MPI.PROC_NULL, world.Attr_get(MPI.HOST), "no host process");
        equal(world.Rank(), world.Attr_get(MPI.IO), "this rank can do I/O");
        int key = 1000;
        world.Attr_put(key, "value");
        equal("value", world.Attr_get(key), "attribute put and got");
        world.Attr_delete(key);
        equal(null, world.Attr_get(key), "attribute deleted");
        fails(MPI.ERR_ARG, "changing a predefined attribute", () -> world.Attr_put(MPI.TAG_UB, 5));
    }

    private static void errorHandlers(Intracomm world, int size) throws Exception {
        equal(MPI.ERRORS_RETURN, world.Errorhandler_get(), "Java programs get exceptions by default");
        Intracomm guarded = world.Dup();
        guarded.Errhandler_set(MPI.ERRORS_RETURN);
        fails(MPI.ERR_RANK, "an error is thrown under ERRORS_RETURN",
                () -> guarded.Send(new int[1], 0, 1, MPI.INT, size + 3, 0));
    }

    private static void groups(Intracomm world, int rank, int size) throws Exception {
        Group all = world.Group();
        equal(size, all.Size(), "world group size");
        equal(rank, all.Rank(), "world group rank");
        Group evens = all.Range_incl(new int[][] {{0, size - 1, 2}});
        Group odds = all.Range_excl(new int[][] {{0, size - 1, 2}});
        equal((size + 1) / 2, evens.Size(), "evens by Range_incl");
        equal(size / 2, odds.Size(), "odds by Range_excl");
        equal(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.Rank(), "rank in the evens");
        equal(MPI.IDENT, Group.Compare(all, Group.Union(evens, odds).Incl(order(evens, odds, size))), "union of evens and odds");
        equal(0, Group.Intersection(evens, odds).Size(), "evens and odds are disjoint");
        equal(evens.Size(), Group.Difference(all, odds).Size(), "all minus odds are the evens");
        Group last = all.Incl(new int[] {size - 1});
        equal(size - 1, Group.Translate_ranks(last, new int[] {0}, all)[0], "translate the last rank");
        equal(MPI.PROC_NULL, Group.Translate_ranks(last, new int[] {MPI.PROC_NULL}, all)[0], "translate PROC_NULL");
        Group withoutFirst = all.Excl(new int[] {0});
        equal(size - 1, withoutFirst.Size(), "Excl of rank 0");
        equal(size == 1 ? MPI.IDENT : MPI.UNEQUAL, Group.Compare(all, evens), "the world and the evens");
        equal(0, MPI.GROUP_EMPTY.Size(), "the empty group");
        fails(MPI.ERR_RANK, "Incl of a rank outside the group", () -> all.Incl(new int[] {size}));
        fails(MPI.ERR_RANK, "Incl naming a rank twice", () -> all.Incl(new int[] {0, 0}));
        fails(MPI.ERR_ARG, "a range with stride 0", () -> all.Range_incl(new int[][] {{0, 0, 0}}));
        Intracomm evenComm = world.Create(evens);
        that((evenComm != null) == (rank % 2 == 0), "Create gives a communicator to members only");
        if (evenComm != null) {
            equal(rank / 2, evenComm.Rank(), "rank in the created communicator");
        }
    }

    /** The union of evens and odds lists evens first: the ranks that put it back in world order. */
    private static int[] order(Group evens, Group odds, int size) throws Exception {
        int[] order = new int[size];
        int e = evens.Size();
        for (int r = 0; r < size; r++) {
            order[r] = r % 2 == 0 ? r / 2 : e + r / 2;
        }
        return order;
    }

    private static void packAcrossRanks(Intracomm world, int rank, int size) throws Exception {
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        byte[] packed = new byte[world.Pack_size(3, MPI.INT) + world.Pack_size(2, MPI.DOUBLE)];
        int position = world.Pack(new int[] {rank, rank + 1, rank + 2}, 0, 3, MPI.INT, packed, 0);
        position = world.Pack(new double[] {rank * 0.5, rank * 1.5}, 0, 2, MPI.DOUBLE, packed, position);
        byte[] received = new byte[packed.length];
        Status status = world.Sendrecv(packed, 0, position, MPI.PACKED, next, 40,
                received, 0, received.length, MPI.PACKED, previous, 40);
        equal(position, status.Get_count(MPI.PACKED), "packed bytes received");
        int[] ints = new int[3];
        double[] doubles = new double[2];
        int at = world.Unpack(received, 0, ints, 0, 3, MPI.INT);
        world.Unpack(received, at, doubles, 0, 2, MPI.DOUBLE);
        equal(previous + 2, ints[2], "unpacked int");
        equal(previous * 1.5, doubles[1], "unpacked double");
    }

    private static void elementsOfDerivedType(Intracomm world, int rank, int size) throws Exception {
        Datatype pair = Datatype.Contiguous(2, MPI.INT);
        pair.Commit();
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;
        int[] out = {1, 2, 3, 4, 5};
        int[] in = new int[6];
        Status status = world.Sendrecv(out, 0, 5, MPI.INT, next, 41, in, 0, 3, pair, previous, 41);
        equal(MPI.UNDEFINED, status.Get_count(pair), "five ints are not a whole number of pairs");
        equal(5, status.Get_elements(pair), "but five elements arrived");
        equal(5, in[4], "the fifth element");
    }
}
