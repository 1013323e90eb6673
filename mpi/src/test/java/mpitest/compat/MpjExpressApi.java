package mpitest.compat;

import static mpitest.Check.equal;
import static mpitest.Check.fails;
import static mpitest.Check.that;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.Group;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * What programs written for MPJ Express use beyond mpiJava 1.2, and the mpiJava calls they use that
 * dist lacked: {@code MPI.REQUEST_NULL} in request arrays, {@code clone()} on a {@code Comm},
 * {@code Buffer_attach(ByteBuffer)}, {@code MPI.NUM_OF_PROCESSORS}, a range whose last bound lies
 * past the group. Not public, and its main neither declares nor catches {@code MPIException}: it
 * compiles only because that exception is unchecked, and runs only because mpirun, like java, runs
 * the main of a class that is not public.
 */
class MpjExpressApi {
    private MpjExpressApi() {}

    public static void main(String[] args) {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        that(MPI.NUM_OF_PROCESSORS >= 1, "NUM_OF_PROCESSORS is " + MPI.NUM_OF_PROCESSORS);
        requestNull(rank, size);
        commClone(rank, size);
        bufferedSendFromAByteBuffer(rank, size);
        rangesBoundedPastTheGroup(size);
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }

    /** REQUEST_NULL among live requests: skipped by Waitany and Testsome, empty for Waitall. */
    private static void requestNull(int rank, int size) {
        that(MPI.REQUEST_NULL.Is_null(), "REQUEST_NULL is null");
        equal(MPI.UNDEFINED, Request.Waitany(new Request[] {MPI.REQUEST_NULL, MPI.REQUEST_NULL}).index,
                "Waitany over REQUEST_NULL only");
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int[] in = new int[1];
        Request receive = MPI.COMM_WORLD.Irecv(in, 0, 1, MPI.INT, left, 7);
        MPI.COMM_WORLD.Send(new int[] {rank}, 0, 1, MPI.INT, right, 7);
        Request[] requests = {MPI.REQUEST_NULL, receive, MPI.REQUEST_NULL};
        Status status = Request.Waitany(requests);
        equal(1, status.index, "Waitany's index skips REQUEST_NULL");
        equal(left, in[0], "the value received");
        Status[] none = Request.Testsome(new Request[] {MPI.REQUEST_NULL});
        that(none == null || none.length == 0, "Testsome over REQUEST_NULL completes nothing");
        equal(2, Request.Waitall(new Request[] {MPI.REQUEST_NULL, MPI.REQUEST_NULL}).length, "Waitall over REQUEST_NULL");
        that(MPI.REQUEST_NULL.Is_null(), "REQUEST_NULL stays null");
    }

    /** clone() on a variable of type Comm duplicates the communicator: same ranks, a context of its own. */
    private static void commClone(int rank, int size) {
        Comm world = MPI.COMM_WORLD;
        Comm copy = (Comm) world.clone();
        equal(rank, copy.Rank(), "rank in the clone");
        equal(size, copy.Size(), "size of the clone");
        equal(MPI.CONGRUENT, Comm.Compare(world, copy), "the clone is congruent, not the same");
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int[] onCopy = new int[1], onWorld = new int[1];
        Request fromCopy = copy.Irecv(onCopy, 0, 1, MPI.INT, left, 3);
        Request fromWorld = world.Irecv(onWorld, 0, 1, MPI.INT, left, 3);
        world.Send(new int[] {100 + rank}, 0, 1, MPI.INT, right, 3);
        copy.Send(new int[] {200 + rank}, 0, 1, MPI.INT, right, 3);
        fromCopy.Wait();
        fromWorld.Wait();
        equal(200 + left, onCopy[0], "what the clone's receive got");
        equal(100 + left, onWorld[0], "what the world's receive got");
        copy.Free();
    }

    private static void bufferedSendFromAByteBuffer(int rank, int size) {
        MPI.Buffer_attach(ByteBuffer.allocateDirect(4096));
        fails(MPI.ERR_BUFFER, "a second attach", () -> MPI.Buffer_attach(ByteBuffer.allocate(16)));
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int[] in = new int[4];
        Request receive = MPI.COMM_WORLD.Irecv(in, 0, 4, MPI.INT, left, 11);
        MPI.COMM_WORLD.Bsend(new int[] {rank, rank, rank, rank}, 0, 4, MPI.INT, right, 11);
        receive.Wait();
        equal(new int[] {left, left, left, left}, in, "what the buffered send carried");
        that(MPI.Buffer_detach() == null, "a direct buffer has no array to give back");
        MPI.Buffer_attach(ByteBuffer.allocate(16));
        equal(16, MPI.Buffer_detach().length, "a heap buffer's array comes back");
    }

    /**
     * (first, last, stride) asks only that the ranks it gives be in the group: in a group of 8,
     * (5, 8, 2) gives 5 and 7. Here first has the parity of the last rank, so the range ends on it.
     */
    private static void rangesBoundedPastTheGroup(int size) {
        Group all = MPI.COMM_WORLD.Group();
        int first = (size - 1) % 2;
        Group picked = all.Range_incl(new int[][] {{first, size, 2}});
        int expected = (size - 1 - first) / 2 + 1;
        equal(expected, picked.Size(), "ranks of (" + first + ", " + size + ", 2)");
        equal(size - expected, all.Range_excl(new int[][] {{first, size, 2}}).Size(), "the rest");
        equal(1, all.Range_incl(new int[][] {{size - 1, -1, -size - 1}}).Size(), "a falling range bounded past rank 0");
        fails(MPI.ERR_RANK, "a range that gives a rank past the group",
                () -> all.Range_incl(new int[][] {{first, size + 1, 1}}));
    }
}
