package dev.distvm.mpi.engine;

import java.nio.ByteBuffer;

/** Where a device hands what it receives: the rank's {@link Messenger}. */
interface Inbox {
    /** A message that arrived whole (from a rank in this JVM). */
    void deliver(Message message);

    /**
     * A message whose header has arrived and whose payload of {@code length} bytes follows;
     * {@code first} holds its first {@code min(length, ReceiveBuffer.PEEK)} bytes from its position
     * (not to be moved). Returns what takes the payload.
     */
    Intake arriving(MessageHeader header, int length, ByteBuffer first);

    /** The payload of one arriving message as a device reads it, and what happens once it is all there. */
    interface Intake {
        /**
         * Takes the payload's next bytes from {@code in}, which holds nothing past the payload's end:
         * all of them, or all but the start of an element that has not fully arrived.
         */
        void take(ByteBuffer in);

        /** The whole payload has been taken. */
        void complete();
    }
}
