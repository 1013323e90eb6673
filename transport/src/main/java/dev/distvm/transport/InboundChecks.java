package dev.distvm.transport;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import dev.distvm.common.Log;
import dev.distvm.transport.proto.Envelope;
import dev.distvm.transport.proto.ErrorCode;
import dev.distvm.transport.proto.Kind;

/**
 * What an incoming frame must be before anything acts on it. A request or one-way message is
 * checked in this order: decodable, protocol version, kind (its type is checked
 * where the handlers are, {@link Responder}); the first failure is a {@link Refusal}, which the
 * sender hears as an ERROR. An answer of another version is dropped.
 */
final class InboundChecks {
    /** Why a request or one-way message is refused: the ERROR its sender gets. */
    static final class Refusal extends Exception {
        final long correlation;
        final ErrorCode code;

        Refusal(long correlation, ErrorCode code, String text) {
            super(text, null, false, false); // an answer to a peer, not a fault here: no stack trace
            this.correlation = correlation;
            this.code = code;
        }
    }

    /** A request or one-way envelope that may be handed to its handler. */
    Envelope request(byte[] frame) throws Refusal {
        Envelope envelope;
        try {
            envelope = decode(frame);
        } catch (InvalidProtocolBufferException e) {
            throw new Refusal(0, ErrorCode.MALFORMED, "frame of " + frame.length + " bytes is not a dist envelope");
        }
        long correlation = envelope.getCorrelation();
        if (envelope.getVersion() != Endpoint.PROTOCOL_VERSION) {
            throw new Refusal(correlation, ErrorCode.VERSION_MISMATCH, "protocol version " + envelope.getVersion()
                    + " is not spoken here (this node speaks " + Endpoint.PROTOCOL_VERSION + "); run the same dist.jar on every node");
        }
        Kind kind = envelope.getKind();
        if (kind != Kind.REQUEST && kind != Kind.ONE_WAY) {
            throw new Refusal(correlation, ErrorCode.MALFORMED, kind + " sent as a request");
        }
        return envelope;
    }

    /** A REPLY or ERROR envelope to hand to the request it answers, or null when it is dropped (and logged). */
    Envelope answer(byte[] frame) {
        Envelope envelope;
        try {
            envelope = decode(frame);
        } catch (InvalidProtocolBufferException e) {
            Log.warn("dropped an undecodable answer of " + frame.length + " bytes");
            return null;
        }
        // An error is believed whatever its version: it is how a peer of another version tells
        // this node what is wrong. A reply must be of this version.
        if (envelope.getKind() != Kind.ERROR && envelope.getVersion() != Endpoint.PROTOCOL_VERSION) {
            Log.warn("dropped an answer of another protocol version (node " + envelope.getSender() + ")");
            return null;
        }
        return envelope;
    }

    /**
     * The envelope, whose body is a view of the frame rather than a copy: the frame is this
     * envelope's alone ({@link FrameChannel#read} gives each frame an array of its own).
     */
    private static Envelope decode(byte[] frame) throws InvalidProtocolBufferException {
        CodedInputStream in = UnsafeByteOperations.unsafeWrap(frame).newCodedInput(); // immutable input: may be aliased
        in.enableAliasing(true);
        Envelope envelope = Envelope.parser().parseFrom(in);
        in.checkLastTagWas(0);
        return envelope;
    }
}
