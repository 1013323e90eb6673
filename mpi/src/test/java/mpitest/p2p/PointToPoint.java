package mpitest.p2p;

import static mpitest.Check.equal;
import static mpitest.Check.fails;
import static mpitest.Check.that;

import mpi.Comm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/** Point-to-point in every mode, with statuses, wildcards, ordering, probes, cancel and errors. */
public final class PointToPoint {
    private PointToPoint() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Comm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();
        int next = (rank + 1) % size;
        int previous = (rank + size - 1) % size;

        ring(world, rank, next, previous);
        // its own communicator: wildcard receives must not catch the next phase's messages
        wildcards(MPI.COMM_WORLD.Dup(), rank, size);
        ordering(world, rank, next, previous);
        exchange(world, rank, next, previous);
        probes(world, rank, next, previous);
        synchronousAndBuffered(world, rank, next, previous);
        persistent(world, rank, next, previous);
        completionOfMany(world, rank, next, previous);
        cancelAndNull(world, rank);
        errors(world, size);
        MPI.Finalize();
    }

    private static void ring(Comm world, int rank, int next, int previous) throws Exception {
        int[] out = {rank, rank * 10, rank * 100};
        int[] in = new int[5];
        Request send = world.Isend(out, 0, 3, MPI.INT, next, 7);
        Status status = world.Recv(in, 1, 3, MPI.INT, previous, 7);
        send.Wait();
        equal(previous, status.source, "ring source");
        equal(7, status.tag, "ring tag");
        equal(3, status.Get_count(MPI.INT), "ring count");
        equal(previous * 100, in[3], "ring payload at offset");
        equal(0, in[0], "ring leaves elements before the offset alone");

        double[] values = new double[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = rank + i / 1000.0;
        }
        double[] received = new double[1000];
        world.Sendrecv(values, 0, 1000, MPI.DOUBLE, next, 8, received, 0, 1000, MPI.DOUBLE, previous, 8);
        equal(previous + 999 / 1000.0, received[999], "sendrecv doubles");
    }

    /** Rank 0 receives one message from every other rank with ANY_SOURCE/ANY_TAG, tags = sender. */
    private static void wildcards(Comm world, int rank, int size) throws Exception {
        if (rank == 0) {
            boolean[] seen = new boolean[size];
            for (int i = 1; i < size; i++) {
                long[] value = new long[1];
                Status status = world.Recv(value, 0, 1, MPI.LONG, MPI.ANY_SOURCE, MPI.ANY_TAG);
                equal((long) status.source * 1_000_000_007L, value[0], "payload matches the reported source");
                equal(status.source, status.tag, "tag matches the reported source");
                that(!seen[status.source], "each source once");
                seen[status.source] = true;
            }
        } else {
            world.Send(new long[] {rank * 1_000_000_007L}, 0, 1, MPI.LONG, 0, rank);
        }
    }

    /** MPI's non-overtaking rule: messages from one sender arrive in the order sent, even with ANY_TAG. */
    private static void ordering(Comm world, int rank, int next, int previous) throws Exception {
        int messages = 200;
        Request[] sends = new Request[messages];
        for (int i = 0; i < messages; i++) {
            sends[i] = world.Isend(new int[] {i}, 0, 1, MPI.INT, next, i % 3);
        }
        for (int i = 0; i < messages; i++) {
            int[] value = new int[1];
            world.Recv(value, 0, 1, MPI.INT, previous, MPI.ANY_TAG);
            equal(i, value[0], "message " + i + " from rank " + previous + " in order");
        }
        Request.Waitall(sends);
    }

    private static void exchange(Comm world, int rank, int next, int previous) throws Exception {
        char[] text = ("rank" + rank).toCharArray();
        char[] buffer = new char[text.length + 4];
        System.arraycopy(text, 0, buffer, 0, text.length);
        Status status = world.Sendrecv_replace(buffer, 0, buffer.length, MPI.CHAR, next, 9, previous, 9);
        equal("rank" + previous, new String(buffer, 0, ("rank" + previous).length()), "sendrecv_replace");
        equal(buffer.length, status.Get_count(MPI.CHAR), "replace count");

        Object[] objects = {"from " + rank, rank, null, new int[] {rank, rank}};
        Object[] got = new Object[4];
        world.Sendrecv(objects, 0, 4, MPI.OBJECT, next, 10, got, 0, 4, MPI.OBJECT, previous, 10);
        equal("from " + previous, got[0], "object string");
        equal(previous, got[1], "object boxed int");
        equal(null, got[2], "object null");
        equal(previous, ((int[]) got[3])[1], "object array");
    }

    private static void probes(Comm world, int rank, int next, int previous) throws Exception {
        world.Send(new short[] {1, 2, 3, 4, 5}, 0, 5, MPI.SHORT, next, 11);
        Status probed = world.Probe(previous, 11);
        equal(previous, probed.source, "probe source");
        equal(5, probed.Get_count(MPI.SHORT), "probe count before receiving");
        Status again = world.Iprobe(MPI.ANY_SOURCE, 11);
        that(again != null, "iprobe sees the probed message");
        short[] values = new short[probed.Get_count(MPI.SHORT)];
        world.Recv(values, 0, values.length, MPI.SHORT, probed.source, probed.tag);
        equal((short) 5, values[4], "probed message received");
        equal(null, world.Iprobe(previous, 11), "nothing left to probe");
    }

    private static void synchronousAndBuffered(Comm world, int rank, int next, int previous) throws Exception {
        int[] value = new int[1];
        SynchronousSend.around(world, new int[] {42}, value, 1, MPI.INT, next, previous, 12);
        equal(42, value[0], "ssend payload");

        // A blocking Ssend by every rank around a ring would deadlock (each waits for a receive not
        // yet posted): even ranks block in Ssend while odd ones post their receive first, and a rank
        // alone, sending to itself, uses Issend.
        if (world.Size() > 1 && rank % 2 == 0) {
            world.Ssend(new byte[] {1, 2}, 0, 2, MPI.BYTE, next, 14);
            world.Recv(new byte[2], 0, 2, MPI.BYTE, previous, 14);
        } else {
            Request ring = world.Issend(new byte[] {1, 2}, 0, 2, MPI.BYTE, next, 14);
            world.Recv(new byte[2], 0, 2, MPI.BYTE, previous, 14);
            ring.Wait();
        }

        fails(MPI.ERR_BUFFER, "Bsend without a buffer", () -> world.Bsend(new int[10], 0, 10, MPI.INT, next, 15));
        MPI.Buffer_attach(new byte[1024]);
        world.Bsend(new int[] {7, 8}, 0, 2, MPI.INT, next, 15);
        int[] buffered = new int[2];
        world.Recv(buffered, 0, 2, MPI.INT, previous, 15);
        equal(8, buffered[1], "bsend payload");
        equal(1024, MPI.Buffer_detach().length, "detached buffer");
        world.Rsend(new float[] {1.5f}, 0, 1, MPI.FLOAT, next, 16);
        float[] ready = new float[1];
        world.Recv(ready, 0, 1, MPI.FLOAT, previous, 16);
        equal(1.5f, ready[0], "rsend payload");
    }

    private static void persistent(Comm world, int rank, int next, int previous) throws Exception {
        int[] out = new int[1];
        int[] in = new int[1];
        Prequest send = world.Send_init(out, 0, 1, MPI.INT, next, 17);
        Prequest receive = world.Recv_init(in, 0, 1, MPI.INT, previous, 17);
        for (int round = 0; round < 5; round++) {
            out[0] = rank * 100 + round;
            Prequest.Startall(new Prequest[] {receive, send});
            Request.Waitall(new Request[] {send, receive});
            equal(previous * 100 + round, in[0], "persistent round " + round);
        }
    }

    private static void completionOfMany(Comm world, int rank, int next, int previous) throws Exception {
        int[][] in = new int[3][1];
        Request[] receives = new Request[3];
        for (int i = 0; i < 3; i++) {
            receives[i] = world.Irecv(in[i], 0, 1, MPI.INT, previous, 20 + i);
        }
        equal(null, Request.Testany(receives), "testany before any send");
        equal(null, Request.Testall(receives), "testall before any send");
        equal(0, Request.Testsome(receives).length, "testsome before any send");
        // the sender to this rank may send only now: it waits for this rank's word (tag 19)
        world.Send(new int[0], 0, 0, MPI.INT, previous, 19);
        world.Recv(new int[0], 0, 0, MPI.INT, next, 19);
        world.Send(new int[] {rank + 200}, 0, 1, MPI.INT, next, 22);
        world.Send(new int[] {rank + 100}, 0, 1, MPI.INT, next, 21);
        Status any = Request.Waitany(receives);
        that(any.index >= 0 && any.index < 3, "waitany index " + any.index);
        equal(previous + 100 * any.index, in[any.index][0], "waitany payload is that of the receive it names");
        world.Send(new int[] {rank}, 0, 1, MPI.INT, next, 20);
        Status[] some = Request.Waitsome(receives);
        that(some.length >= 1, "waitsome completes at least one");
        Status[] tested;
        do {
            tested = Request.Testsome(receives); // polls until the last receive has arrived
        } while (tested.length == 0 && !(receives[0].Is_null() && receives[1].Is_null() && receives[2].Is_null()));
        for (Status status : tested) {
            that(status.index >= 0 && status.index < 3, "testsome index " + status.index);
        }
        Request.Waitall(receives);
        equal(previous + 100, in[1][0], "waitall payload 1");
        equal(previous, in[0][0], "waitall payload 0");
        that(receives[0].Is_null() && receives[1].Is_null() && receives[2].Is_null(), "completed requests are null");
        equal(MPI.UNDEFINED, Request.Waitany(receives).index, "waitany of null requests");
    }

    private static void cancelAndNull(Comm world, int rank) throws Exception {
        Request never = world.Irecv(new int[1], 0, 1, MPI.INT, rank, 999);
        never.Cancel();
        Status cancelled = never.Wait();
        that(cancelled.Test_cancelled(), "a posted receive can be cancelled");

        world.Send(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 1);
        Status nothing = world.Recv(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 1);
        equal(MPI.PROC_NULL, nothing.source, "PROC_NULL receive source");
        equal(0, nothing.Get_count(MPI.INT), "PROC_NULL receive count");
    }

    private static void errors(Comm world, int size) throws Exception {
        fails(MPI.ERR_RANK, "destination out of range", () -> world.Send(new int[1], 0, 1, MPI.INT, size, 0));
        fails(MPI.ERR_TAG, "negative tag", () -> world.Send(new int[1], 0, 1, MPI.INT, 0, -5));
        fails(MPI.ERR_RANK, "source out of range", () -> world.Recv(new int[1], 0, 1, MPI.INT, -7, 0));
        int rank = world.Rank();
        world.Send(new int[] {1, 2, 3}, 0, 3, MPI.INT, rank, 30);
        fails(MPI.ERR_TRUNCATE, "message longer than the receive", () -> world.Recv(new int[2], 0, 2, MPI.INT, rank, 30));
    }
}
