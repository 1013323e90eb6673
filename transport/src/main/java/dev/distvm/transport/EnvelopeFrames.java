package dev.distvm.transport;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import com.google.protobuf.WireFormat;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.Kind;
import java.io.IOException;

/**
 * Puts bodies in envelopes stamped with this node's protocol version and id, and
 * frames them: {@code [int length][envelope]}. The envelope is written as its fields without the
 * body, then the body as field {@code body} (the last field, so the bytes are those protobuf
 * itself would write): a message body is serialized straight into the frame, and a
 * {@link WireBuffer}'s header goes into the room reserved in front of its body, so neither is
 * copied on its way to the socket.
 */
final class EnvelopeFrames {
    /** A whole frame, ready for the socket: {@code length} bytes of {@code array} from {@code offset}. */
    record Frame(byte[] array, int offset, int length) {}

    private final TransportConfig config;
    private volatile int nodeId;

    EnvelopeFrames(TransportConfig config) {
        this.config = config;
    }

    int nodeId() {
        return nodeId;
    }

    void nodeId(int id) {
        this.nodeId = id;
    }

    /** A frame whose body is a Protocol Buffers message, in a new array. */
    Frame frame(Kind kind, long correlation, int type, MessageLite body) {
        Envelope fields = fields(kind, correlation, type);
        int bodyBytes = body.getSerializedSize();
        int size = envelopeSize(fields, bodyBytes, type);
        byte[] frame = new byte[4 + size];
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(frame);
            writeHeader(out, size, fields, bodyBytes);
            body.writeTo(out);
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("envelope did not fill its own serialized size", e);
        }
        return new Frame(frame, 0, frame.length);
    }

    /** A frame around {@code body}'s bytes: its header is written into the room in front of them. */
    Frame frame(Kind kind, long correlation, int type, WireBuffer body) {
        Envelope fields = fields(kind, correlation, type);
        int size = envelopeSize(fields, body.length(), type);
        int start = WireBuffer.HEADER_ROOM - (4 + size - body.length());
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(body.array(), start, WireBuffer.HEADER_ROOM - start);
            writeHeader(out, size, fields, body.length());
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("envelope header did not fill the room computed for it", e);
        }
        return new Frame(body.array(), start, WireBuffer.HEADER_ROOM + body.length() - start);
    }

    private Envelope fields(Kind kind, long correlation, int type) {
        return Envelope.newBuilder()
                .setVersion(Endpoint.PROTOCOL_VERSION)
                .setSender(nodeId)
                .setCorrelation(correlation)
                .setType(type)
                .setKind(kind)
                .build();
    }

    /** The envelope's serialized size with a body of {@code bodyBytes}, refused above the frame limit. */
    private int envelopeSize(Envelope fields, int bodyBytes, int type) {
        long size = fields.getSerializedSize() + bodyFieldSize(bodyBytes) + (long) bodyBytes;
        if (size > config.maxFrameBytes()) {
            throw new TransportException("message of type " + type + " is " + size
                    + " bytes, more than the frame limit of " + config.maxFrameBytes());
        }
        return (int) size;
    }

    /** Protobuf leaves out an empty bytes field; so does this. */
    private static int bodyFieldSize(int bodyBytes) {
        return bodyBytes == 0 ? 0 : CodedOutputStream.computeTagSize(Envelope.BODY_FIELD_NUMBER)
                + CodedOutputStream.computeUInt32SizeNoTag(bodyBytes);
    }

    /** The length prefix, the envelope's fields and the body field's tag and length: all that precedes the body. */
    private static void writeHeader(CodedOutputStream out, int size, Envelope fields, int bodyBytes) throws IOException {
        out.writeFixed32NoTag(Integer.reverseBytes(size)); // the prefix is big-endian; protobuf's fixed32 is little-endian
        fields.writeTo(out);
        if (bodyBytes > 0) {
            out.writeTag(Envelope.BODY_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(bodyBytes);
        }
    }
}
