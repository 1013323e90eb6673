package mpitest.p2p;

import static mpitest.Check.equal;

import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/** A synchronous send around a ring, checked not to complete before its receive is posted. */
final class SynchronousSend {
    private SynchronousSend() {}

    /**
     * Sends {@code count} items of {@code out} to {@code next} with Issend and receives as many into
     * {@code in} from {@code previous}; the receiver posts only after hearing (tag {@code tag + 1})
     * that the sender has seen its Issend still incomplete.
     */
    static void around(Comm world, Object out, Object in, int count, Datatype type, int next, int previous, int tag)
            throws MPIException {
        Request ssend = world.Issend(out, 0, count, type, next, tag);
        boolean incompleteBeforeReceive = ssend.Test() == null;
        world.Send(new int[] {incompleteBeforeReceive ? 1 : 0}, 0, 1, MPI.INT, next, tag + 1);
        int[] report = new int[1];
        world.Recv(report, 0, 1, MPI.INT, previous, tag + 1);
        world.Recv(in, 0, count, type, previous, tag);
        ssend.Wait();
        equal(1, report[0], "rank " + previous + "'s Issend was incomplete before the receive was posted");
    }
}
