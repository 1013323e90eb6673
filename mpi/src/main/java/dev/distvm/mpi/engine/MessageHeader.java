package dev.distvm.mpi.engine;

/**
 * What travels with every MPI message, ahead of its packed payload.
 *
 * @param context  the communicator's context id: point-to-point and collective traffic of one
 *                 communicator use different contexts, so they never match each other
 * @param source   the sender's rank in the world
 * @param tag      the message tag (collectives use their own context, so any tag is theirs)
 * @param elements base elements in the payload, for {@code Status.Get_count} and probes
 * @param flags    {@link #SYNCHRONOUS}: the sender waits for an acknowledgement of the match;
 *                 {@link #ACKNOWLEDGEMENT}: this message is that acknowledgement
 * @param syncId   pairs a synchronous send with its acknowledgement
 */
public record MessageHeader(int context, int source, int tag, int elements, int flags, long syncId) {
    public static final int SYNCHRONOUS = 1;
    public static final int ACKNOWLEDGEMENT = 2;
    /** Bytes of a header on the wire, after the payload length. */
    static final int WIRE_BYTES = 4 * 5 + 8;

    boolean is(int flag) {
        return (flags & flag) != 0;
    }
}
