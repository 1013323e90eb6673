package dev.distvm.mpi.engine;

import java.nio.ByteBuffer;

/**
 * The payload of a message coming off a socket: decoded straight into the buffer of the receive
 * that its header matched, when that receive can take it so, or else read into an array of its own
 * (a message nobody waits for yet, or one the receive must see whole, such as a truncated one).
 */
final class Arrival implements Inbox.Intake {
    private final Messenger messenger;
    private final MessageHeader header;
    /** The receive the header matched; null when the message goes to the matcher once complete. */
    private final PostedReceive receive;
    private final ReceiveBuffer.Decoder decoder;
    private final byte[] bytes;
    private int filled;

    Arrival(Messenger messenger, MessageHeader header, PostedReceive receive, ReceiveBuffer.Decoder decoder, int length) {
        this.messenger = messenger;
        this.header = header;
        this.receive = receive;
        this.decoder = decoder;
        // Read straight into the array the message keeps: no second copy, and none is zeroed twice.
        this.bytes = decoder == null ? new byte[length] : null;
    }

    @Override
    public void take(ByteBuffer in) {
        if (decoder == null) {
            int n = in.remaining();
            in.get(bytes, filled, n);
            filled += n;
        } else if (receive.arrival().isDone()) {
            in.position(in.limit()); // the job failed the receive: its buffer is the program's again
        } else {
            decoder.decode(in);
        }
    }

    @Override
    public void complete() {
        Message message = new Message(header, bytes);
        if (receive != null) {
            messenger.landed(receive, message);
        } else {
            messenger.deliver(message);
        }
    }
}
