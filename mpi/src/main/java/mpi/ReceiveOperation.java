package mpi;

import dev.distvm.mpi.engine.Message;
import dev.distvm.mpi.engine.PostedReceive;
import dev.distvm.mpi.engine.ReceiveBuffer;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A posted receive of {@code count} items of {@code buf} from {@code offset}: its matched message
 * is decoded straight into the buffer while it arrives when it can be, else unpacked here when the
 * waiting thread finishes the receive.
 */
final class ReceiveOperation implements Operation, ReceiveBuffer {
    private final Comm comm;
    private final Object buf;
    private final int offset;
    private final int count;
    private final Datatype datatype;
    private PostedReceive posted;
    /** Set (by the thread that receives) when the message goes straight into the buffer. */
    private RowDecoder decoder;

    ReceiveOperation(Comm comm, Object buf, int offset, int count, Datatype datatype) {
        this.comm = comm;
        this.buf = buf;
        this.offset = offset;
        this.count = count;
        this.datatype = datatype;
    }

    /** Posts this receive on {@code context}; done once, before the operation is used. */
    ReceiveOperation post(int context, int source, int tag) {
        posted = comm.messenger.receive(context, source, tag, this);
        return this;
    }

    @Override
    public Decoder open(int length, ByteBuffer first) {
        decoder = datatype.layout.decoder(buf, offset, count, length, first);
        return decoder;
    }

    @Override
    public CompletableFuture<?> completion() {
        return posted.arrival();
    }

    @Override
    public Status finish(Object value) throws MPIException {
        if (value == null) {
            return Status.cancelledStatus();
        }
        Message message = (Message) value;
        int elements;
        if (message.payload() == null) {
            elements = decoder.elements(); // the future's completion made the decoder's writes visible here
        } else {
            try {
                elements = datatype.layout.unpack(message.payload(), buf, offset, count);
            } catch (MPIException e) {
                throw comm.error(e);
            }
        }
        return new Status(comm.peerRankOfWorld(message.header().source()), message.header().tag(), elements, false);
    }

    @Override
    public boolean cancel() {
        return comm.messenger.cancel(posted);
    }
}
