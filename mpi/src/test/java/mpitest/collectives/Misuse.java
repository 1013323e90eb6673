package mpitest.collectives;

import mpitest.Check;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.User_function;

/**
 * Misuse that every member can see for itself fails at once with the right error class, on every
 * rank and without sending anything: afterwards the communicator still works, which shows that no
 * stray message was left behind.
 */
public final class Misuse {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.Rank();
        int size = world.Size();
        int[] buf = new int[4];
        int[] counts = new int[size];
        int[] displs = new int[size];
        int[] shortArray = new int[size - 1];

        Check.fails(MPI.ERR_ROOT, "Bcast to root == size", () -> world.Bcast(buf, 0, 1, MPI.INT, size));
        Check.fails(MPI.ERR_ROOT, "Bcast to root -1", () -> world.Bcast(buf, 0, 1, MPI.INT, -1));
        Check.fails(MPI.ERR_ROOT, "Reduce to root == size", () -> world.Reduce(buf, 0, buf, 0, 1, MPI.INT, MPI.SUM, size));
        Check.fails(MPI.ERR_ROOT, "Gather to root -2",
                () -> world.Gather(buf, 0, 1, MPI.INT, new int[size], 0, 1, MPI.INT, -2));
        Check.fails(MPI.ERR_ROOT, "Scatterv from root size + 3",
                () -> world.Scatterv(buf, 0, counts, displs, MPI.INT, buf, 0, 0, MPI.INT, size + 3));

        Check.fails(MPI.ERR_COUNT, "Bcast of -1 items", () -> world.Bcast(buf, 0, -1, MPI.INT, 0));
        Check.fails(MPI.ERR_COUNT, "Allreduce of -1 items", () -> world.Allreduce(buf, 0, buf, 0, -1, MPI.INT, MPI.SUM));
        Check.fails(MPI.ERR_COUNT, "Reduce of -5 items", () -> world.Reduce(buf, 0, buf, 0, -5, MPI.INT, MPI.MAX, 0));
        Check.fails(MPI.ERR_COUNT, "Scan of -1 items", () -> world.Scan(buf, 0, buf, 0, -1, MPI.INT, MPI.SUM));
        Check.fails(MPI.ERR_COUNT, "Allgather with recvcount -1",
                () -> world.Allgather(buf, 0, 1, MPI.INT, buf, 0, -1, MPI.INT));
        Check.fails(MPI.ERR_COUNT, "Alltoall with sendcount -1",
                () -> world.Alltoall(buf, 0, -1, MPI.INT, buf, 0, 1, MPI.INT));
        int[] negative = new int[size];
        negative[size - 1] = -1;
        Check.fails(MPI.ERR_COUNT, "Reduce_scatter with a negative count",
                () -> world.Reduce_scatter(buf, 0, buf, 0, negative, MPI.INT, MPI.SUM));

        Check.fails(MPI.ERR_ARG, "Allgatherv with recvcount shorter than the group",
                () -> world.Allgatherv(buf, 0, 0, MPI.INT, buf, 0, shortArray, displs, MPI.INT));
        Check.fails(MPI.ERR_ARG, "Allgatherv with displs shorter than the group",
                () -> world.Allgatherv(buf, 0, 0, MPI.INT, buf, 0, counts, shortArray, MPI.INT));
        Check.fails(MPI.ERR_ARG, "Alltoallv with sdispls shorter than the group",
                () -> world.Alltoallv(buf, 0, counts, shortArray, MPI.INT, buf, 0, counts, displs, MPI.INT));
        Check.fails(MPI.ERR_ARG, "Reduce_scatter with recvcounts shorter than the group",
                () -> world.Reduce_scatter(buf, 0, buf, 0, shortArray, MPI.INT, MPI.SUM));
        Check.fails(MPI.ERR_ARG, "Alltoallv with null recvcount",
                () -> world.Alltoallv(buf, 0, counts, displs, MPI.INT, buf, 0, null, displs, MPI.INT));

        Check.fails(MPI.ERR_BUFFER, "Allreduce into a buffer too small",
                () -> world.Allreduce(buf, 0, new int[2], 0, 3, MPI.INT, MPI.SUM));
        Check.fails(MPI.ERR_BUFFER, "Bcast past the end of the buffer", () -> world.Bcast(buf, 2, 3, MPI.INT, 0));
        Check.fails(MPI.ERR_BUFFER, "Allgather into a buffer too small for the group",
                () -> world.Allgather(buf, 0, 1, MPI.INT, new int[size - 1], 0, 1, MPI.INT));
        Check.fails(MPI.ERR_BUFFER, "Scan of a null buffer", () -> world.Scan(null, 0, buf, 0, 1, MPI.INT, MPI.SUM));
        Check.fails(MPI.ERR_TYPE, "Bcast of an int[] as DOUBLE", () -> world.Bcast(buf, 0, 1, MPI.DOUBLE, 0));
        Check.fails(MPI.ERR_TYPE, "Allgather whose two sides differ",
                () -> world.Allgather(buf, 0, 2, MPI.INT, new int[4 * size], 0, 1, MPI.INT));

        Check.fails(MPI.ERR_OP, "BAND on DOUBLE", () -> world.Allreduce(new double[1], 0, new double[1], 0, 1, MPI.DOUBLE, MPI.BAND));
        Check.fails(MPI.ERR_OP, "SUM on OBJECT", () -> world.Reduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM, 0));
        Check.fails(MPI.ERR_OP, "SUM on BOOLEAN", () -> world.Scan(new boolean[1], 0, new boolean[1], 0, 1, MPI.BOOLEAN, MPI.SUM));
        Check.fails(MPI.ERR_OP, "MAXLOC on INT", () -> world.Allreduce(buf, 0, buf, 0, 1, MPI.INT, MPI.MAXLOC));
        Check.fails(MPI.ERR_OP, "null Op", () -> world.Allreduce(buf, 0, buf, 0, 1, MPI.INT, null));
        Op user = new Op(new User_function() {
            @Override
            public void Call(Object in, int inoffset, Object inout, int inoutoffset, int count, Datatype datatype) {
            }
        }, true);
        user.Free();
        Check.fails(MPI.ERR_OP, "a freed Op", () -> world.Allreduce(buf, 0, buf, 0, 1, MPI.INT, user));

        Check.fails(MPI.ERR_ARG, "Split with colour -5", () -> world.Split(-5, 0));
        Intracomm first = world.Split(rank == 0 ? 0 : MPI.UNDEFINED, 0);
        if (rank == 0 && size > 1) {
            Check.fails(MPI.ERR_GROUP, "Create with a group that is not a subset", () -> first.Create(world.Group()));
        }

        // Nothing was sent by the failed calls: collectives still line up.
        int[] sum = new int[1];
        world.Allreduce(new int[] {rank + 1}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(size * (size + 1) / 2, sum[0], "Allreduce after the failures");
        int[] gathered = new int[size];
        world.Gather(new int[] {rank}, 0, 1, MPI.INT, gathered, 0, 1, MPI.INT, size - 1);
        if (rank == size - 1) {
            for (int i = 0; i < size; i++) {
                Check.equal(i, gathered[i], "Gather after the failures");
            }
        }
        world.Barrier();
        MPI.Finalize();
    }
}
