package dev.distvm.mpi.engine;

import java.nio.ByteBuffer;
import java.util.Arrays;

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
    /** Bytes the array starts with at most: a frame's announced length is only a claim until its bytes come. */
    private static final int FIRST_BYTES = 64 * 1024;

    private final ReceiveBuffer.Decoder decoder;
    private final int length;
    private byte[] bytes;
    private int filled;

    Arrival(Messenger messenger, MessageHeader header, PostedReceive receive, ReceiveBuffer.Decoder decoder, int length) {
        this.messenger = messenger;
        this.header = header;
        this.receive = receive;
        this.decoder = decoder;
        this.length = length;
        // Read straight into the array the message keeps (grown, doubling, as the bytes come, so a
        // peer that announces 2 GiB and sends little costs little).
        this.bytes = decoder == null ? new byte[Math.min(length, FIRST_BYTES)] : null;
    }

    @Override
    public void take(ByteBuffer in) {
        if (decoder == null) {
            int n = in.remaining();
            if (filled + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(length, Math.max(filled + n, 2L * bytes.length)));
            }
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
