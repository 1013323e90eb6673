package dist.transport;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dist.transport.proto.Envelope;
import dist.transport.proto.Kind;
import java.io.IOException;

/** Puts bodies in envelopes stamped with this node's protocol version, cluster token and id, and frames them. */
final class EnvelopeFrames {
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

    /** An envelope with its 4-byte length prefix, ready for the socket. */
    byte[] frame(Kind kind, long correlation, int type, ByteString body) {
        Envelope envelope = Envelope.newBuilder()
                .setVersion(Endpoint.PROTOCOL_VERSION)
                .setCluster(config.secret().token())
                .setSender(nodeId)
                .setCorrelation(correlation)
                .setType(type)
                .setKind(kind)
                .setBody(body)
                .build();
        int size = envelope.getSerializedSize();
        if (size > config.maxFrameBytes()) {
            throw new TransportException("message of type " + type + " is " + size
                    + " bytes, more than the frame limit of " + config.maxFrameBytes());
        }
        byte[] frame = new byte[4 + size];
        frame[0] = (byte) (size >>> 24);
        frame[1] = (byte) (size >>> 16);
        frame[2] = (byte) (size >>> 8);
        frame[3] = (byte) size;
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(frame, 4, size);
            envelope.writeTo(out);
            out.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("envelope did not fill its own serialized size", e);
        }
        return frame;
    }
}
