package dev.distvm.transport;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import dev.distvm.transport.proto.Kind;
import java.nio.ByteBuffer;

/** A message received by an {@link Endpoint}: who sent it, its type, and its still-encoded body. */
public record Inbound(int sender, int type, Kind kind, long correlation, ByteString body) {
    /** Decodes the body; a body that does not decode is answered with BAD_BODY by the endpoint. */
    public <T> T decode(Parser<T> parser) {
        try {
            return parser.parseFrom(body);
        } catch (InvalidProtocolBufferException e) {
            throw new BadBodyException("a message body does not decode (malformed, or from another version of dist): " + e.getMessage());
        }
    }

    /** The body as raw bytes (of a {@link Handler.Raw} type, or a reply to a {@link WireBuffer}): a big-endian view, not a copy. */
    public ByteBuffer bodyBuffer() {
        return body.asReadOnlyByteBuffer().slice(); // index 0 is the body's first byte, wherever it lies in the frame
    }

    /** Thrown when a body is not the message its type promises. */
    public static final class BadBodyException extends TransportException {
        public BadBodyException(String message) {
            super(message);
        }
    }
}
