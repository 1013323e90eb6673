package mpi;

import dev.distvm.mpi.engine.Matcher;
import dev.distvm.mpi.engine.MessageHeader;
import dev.distvm.mpi.engine.Messenger;
import dev.distvm.mpi.engine.Payload;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A communicator: a group of processes and a context of their own, so that messages of different
 * communicators never match. Point-to-point communication lives here; collectives in
 * {@link Intracomm}. Ranks are the communicator's; the engine below speaks world ranks.
 */
public abstract class Comm {
    final Messenger messenger;
    final Group group;
    /** Point-to-point context; collective traffic of this communicator uses {@code context + 1}. */
    final int context;
    private Errhandler errhandler = MPI.ERRORS_RETURN;
    private final Map<Integer, Object> attributes = new HashMap<>();
    private boolean freed;

    Comm(Messenger messenger, Group group, int context) {
        this.messenger = messenger;
        this.group = group;
        this.context = context;
    }

    // ---- the communicator itself --------------------------------------------------------------

    public int Size() throws MPIException {
        return group.Size();
    }

    public int Rank() throws MPIException {
        return group.Rank();
    }

    public Group Group() throws MPIException {
        return group;
    }

    /**
     * {@code MPI.IDENT} (the same communicator), {@code MPI.CONGRUENT} (same members in the same
     * order), {@code MPI.SIMILAR} (same members) or {@code MPI.UNEQUAL}.
     */
    public static int Compare(Comm comm1, Comm comm2) throws MPIException {
        if (comm1 == comm2 || comm1.context == comm2.context) {
            return MPI.IDENT;
        }
        int groups = Group.Compare(comm1.group, comm2.group);
        return groups == MPI.IDENT ? MPI.CONGRUENT : groups;
    }

    public void Free() throws MPIException {
        freed = true;
    }

    /**
     * A new communicator of the same kind, with the same processes and a new context
     * ({@code MPI_COMM_DUP}): messages on one never match receives on the other. Collective.
     */
    public abstract Comm Dup() throws MPIException;

    /** {@link #Dup()}: mpiJava binds {@code MPI_COMM_DUP} to {@code clone} on every communicator. */
    @Override
    public Object clone() {
        return Dup();
    }

    public boolean Is_null() {
        return freed;
    }

    /** Whether this is an inter-communicator. */
    public boolean Test_inter() throws MPIException {
        return false;
    }

    /** {@code MPI.CART}, {@code MPI.GRAPH}, or {@code MPI.UNDEFINED} for no topology. */
    public int Topo_test() throws MPIException {
        return MPI.UNDEFINED;
    }

    public void Errhandler_set(Errhandler handler) throws MPIException {
        this.errhandler = handler;
    }

    public Errhandler Errorhandler_get() throws MPIException {
        return errhandler;
    }

    /** Ends every process of the job with {@code errorcode}. */
    public void Abort(int errorcode) throws MPIException {
        MPI.abortJob(errorcode);
    }

    /** An attribute: the predefined {@code MPI.TAG_UB}, {@code MPI.HOST}, {@code MPI.IO}, or one put here. */
    public Object Attr_get(int keyval) throws MPIException {
        if (keyval == MPI.TAG_UB) {
            return MPI.TAG_UB_VALUE;
        }
        if (keyval == MPI.HOST) {
            return MPI.PROC_NULL; // no process is distinguished as the host
        }
        if (keyval == MPI.IO) {
            return Rank(); // every rank can do I/O
        }
        return attributes.get(keyval);
    }

    public void Attr_put(int keyval, Object value) throws MPIException {
        if (keyval == MPI.TAG_UB || keyval == MPI.HOST || keyval == MPI.IO) {
            throw error(new MPIException(MPI.ERR_ARG, "predefined attribute " + keyval + " cannot be changed"));
        }
        attributes.put(keyval, value);
    }

    public void Attr_delete(int keyval) throws MPIException {
        attributes.remove(keyval);
    }

    /** Applies this communicator's error handler to an error about to be thrown. */
    MPIException error(MPIException e) {
        return errhandler.handle(e);
    }

    // ---- blocking point-to-point --------------------------------------------------------------

    /** Standard-mode send: returns once the message is on its way and {@code buf} may be reused. */
    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        Isend(buf, offset, count, datatype, dest, tag).Wait();
    }

    /** Buffered-mode send: needs an attached buffer ({@link MPI#Buffer_attach}) large enough for the message. */
    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        Ibsend(buf, offset, count, datatype, dest, tag).Wait();
    }

    /** Synchronous-mode send: returns once the receiver has matched the message. */
    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        Issend(buf, offset, count, datatype, dest, tag).Wait();
    }

    /** Ready-mode send: the program promises the receive is posted; sent as a standard send. */
    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        Irsend(buf, offset, count, datatype, dest, tag).Wait();
    }

    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        return Irecv(buf, offset, count, datatype, source, tag).Wait();
    }

    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Request receive = Irecv(recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
        Send(sendbuf, sendoffset, sendcount, sendtype, dest, sendtag);
        return receive.Wait();
    }

    /** Sends the buffer, then receives into the same buffer. */
    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest, int sendtag,
                                   int source, int recvtag) throws MPIException {
        Request send = Isend(buf, offset, count, datatype, dest, sendtag); // has read buf when it returns
        Status status = Recv(buf, offset, count, datatype, source, recvtag);
        send.Wait();
        return status;
    }

    // ---- non-blocking point-to-point ----------------------------------------------------------

    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return new Request(this, startSend(buf, offset, count, datatype, dest, tag, false));
    }

    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        checkSend(buf, offset, count, datatype, dest, tag);
        return new Request(this, send(context, buf, offset, count, datatype, dest, tag, Mode.BUFFERED));
    }

    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return new Request(this, startSend(buf, offset, count, datatype, dest, tag, true));
    }

    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return Isend(buf, offset, count, datatype, dest, tag);
    }

    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        return new Request(this, startReceive(buf, offset, count, datatype, source, tag));
    }

    // ---- persistent requests ------------------------------------------------------------------

    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        checkSend(buf, offset, count, datatype, dest, tag);
        return new Prequest(this, () -> startSend(buf, offset, count, datatype, dest, tag, false));
    }

    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        checkSend(buf, offset, count, datatype, dest, tag);
        return new Prequest(this, () -> send(context, buf, offset, count, datatype, dest, tag, Mode.BUFFERED));
    }

    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        checkSend(buf, offset, count, datatype, dest, tag);
        return new Prequest(this, () -> startSend(buf, offset, count, datatype, dest, tag, true));
    }

    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag)
            throws MPIException {
        return Send_init(buf, offset, count, datatype, dest, tag);
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag)
            throws MPIException {
        checkReceive(buf, offset, count, datatype, source, tag);
        return new Prequest(this, () -> startReceive(buf, offset, count, datatype, source, tag));
    }

    // ---- probes -------------------------------------------------------------------------------

    /** The status of a matching message that has arrived, or null. */
    public Status Iprobe(int source, int tag) throws MPIException {
        return probe(source, tag, false);
    }

    /** Waits for a matching message and returns its status without receiving it. */
    public Status Probe(int source, int tag) throws MPIException {
        return probe(source, tag, true);
    }

    private Status probe(int source, int tag, boolean block) throws MPIException {
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false);
        }
        checkSourceAndTag(source, tag);
        try {
            MessageHeader header = messenger.probe(context, worldSource(source), tag == MPI.ANY_TAG ? Matcher.ANY_TAG : tag, block);
            return header == null ? null : new Status(peerRankOfWorld(header.source()), header.tag(), header.elements(), false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw error(new MPIException(MPI.ERR_OTHER, "interrupted in Probe", e));
        } catch (IOException e) {
            throw error(new MPIException(MPI.ERR_OTHER, "receiving failed: " + e.getMessage(), e));
        } catch (IllegalStateException e) {
            throw error(new MPIException(MPI.ERR_OTHER, e.getMessage(), e));
        }
    }

    // ---- packing ------------------------------------------------------------------------------

    public int Pack_size(int incount, Datatype datatype) throws MPIException {
        return datatype.layout.packSize(incount);
    }

    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position)
            throws MPIException {
        return datatype.layout.packInto(inbuf, offset, incount, outbuf, position);
    }

    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype)
            throws MPIException {
        return datatype.layout.unpackFrom(inbuf, position, outbuf, offset, outcount);
    }

    // ---- the operations behind requests -------------------------------------------------------

    /** Point-to-point on this communicator's context; collectives pass their own context. */
    Operation startSend(Object buf, int offset, int count, Datatype datatype, int dest, int tag, boolean synchronous)
            throws MPIException {
        checkSend(buf, offset, count, datatype, dest, tag);
        return send(context, buf, offset, count, datatype, dest, tag, synchronous);
    }

    Operation send(int onContext, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                   boolean synchronous) throws MPIException {
        return send(onContext, buf, offset, count, datatype, dest, tag, synchronous ? Mode.SYNCHRONOUS : Mode.STANDARD);
    }

    /** Send modes as the engine sees them: ready mode is standard mode. */
    private enum Mode { STANDARD, BUFFERED, SYNCHRONOUS }

    private Operation send(int onContext, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                           Mode mode) throws MPIException {
        if (dest == MPI.PROC_NULL) {
            return Operation.done(Status.empty());
        }
        Payload payload = datatype.layout.outgoing(buf, offset, count);
        if (mode == Mode.BUFFERED) {
            MPI.checkAttachedBuffer(payload.size());
        }
        int to = worldRankOfPeer(dest);
        try {
            if (mode != Mode.SYNCHRONOUS) {
                messenger.send(to, onContext, tag, datatype.layout.elements(count), payload);
                return Operation.done(Status.empty());
            }
            CompletableFuture<Void> matched = messenger.sendSynchronous(to, onContext, tag, datatype.layout.elements(count), payload);
            return new Operation() {
                @Override
                public CompletableFuture<?> completion() {
                    return matched;
                }

                @Override
                public Status finish(Object value) {
                    return Status.empty();
                }

                @Override
                public boolean cancel() {
                    return false;
                }
            };
        } catch (IOException | IllegalStateException e) {
            throw error(new MPIException(MPI.ERR_OTHER, "cannot send to rank " + dest + ": " + e.getMessage(), e));
        }
    }

    Operation startReceive(Object buf, int offset, int count, Datatype datatype, int source, int tag)
            throws MPIException {
        checkReceive(buf, offset, count, datatype, source, tag);
        return receive(context, buf, offset, count, datatype, source, tag);
    }

    Operation receive(int onContext, Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        if (source == MPI.PROC_NULL) {
            return Operation.done(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false));
        }
        return new ReceiveOperation(this, buf, offset, count, datatype)
                .post(onContext, worldSource(source), tag == MPI.ANY_TAG ? Matcher.ANY_TAG : tag);
    }

    private int worldSource(int source) {
        return source == MPI.ANY_SOURCE ? Matcher.ANY_SOURCE : worldRankOfPeer(source);
    }

    // ---- whom ranks name: this group here, the remote group on an inter-communicator ----------

    /** The world rank of the process that point-to-point rank {@code rank} names. */
    int worldRankOfPeer(int rank) {
        return group.worldRank(rank);
    }

    /** The point-to-point rank of a world rank (as a status reports its source). */
    int peerRankOfWorld(int worldRank) {
        return group.rankOfWorld(worldRank);
    }

    /** How many processes point-to-point ranks can name. */
    int peerCount() throws MPIException {
        return group.Size();
    }

    // ---- argument checks ----------------------------------------------------------------------

    private void checkSend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        checkUsable();
        if (dest != MPI.PROC_NULL) {
            checkRank(dest, "destination");
        }
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw error(new MPIException(MPI.ERR_TAG, "send tag " + tag + " is outside 0.." + MPI.TAG_UB_VALUE));
        }
        check(buf, offset, count, datatype);
    }

    private void checkReceive(Object buf, int offset, int count, Datatype datatype, int source, int tag)
            throws MPIException {
        checkUsable();
        if (source != MPI.PROC_NULL) {
            checkSourceAndTag(source, tag);
        }
        check(buf, offset, count, datatype);
    }

    private void checkSourceAndTag(int source, int tag) throws MPIException {
        checkUsable();
        if (source != MPI.ANY_SOURCE) {
            checkRank(source, "source");
        }
        if (tag != MPI.ANY_TAG && (tag < 0 || tag > MPI.TAG_UB_VALUE)) {
            throw error(new MPIException(MPI.ERR_TAG, "receive tag " + tag + " is neither ANY_TAG nor in 0.." + MPI.TAG_UB_VALUE));
        }
    }

    private void check(Object buf, int offset, int count, Datatype datatype) throws MPIException {
        if (datatype == null) {
            throw error(new MPIException(MPI.ERR_TYPE, "datatype is null"));
        }
        try {
            datatype.layout.check(buf, offset, count);
        } catch (MPIException e) {
            throw error(e);
        }
    }

    void checkRank(int rank, String role) throws MPIException {
        if (rank < 0 || rank >= peerCount()) {
            throw error(new MPIException(MPI.ERR_RANK, role + " rank " + rank + " is not in 0.." + (peerCount() - 1)
                    + " (" + peerCount() + " processes)"));
        }
    }

    void checkUsable() throws MPIException {
        if (freed) {
            throw error(new MPIException(MPI.ERR_COMM, "the communicator was freed"));
        }
        MPI.checkInitialized();
    }
}
