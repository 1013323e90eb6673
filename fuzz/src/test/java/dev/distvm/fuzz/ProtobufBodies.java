package dev.distvm.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Parser;
import dev.distvm.transport.Inbound;
import dev.distvm.transport.proto.Kind;
import java.util.Arrays;
import java.util.List;

/**
 * The bodies of one protocol's protobuf messages, decoded as handlers decode them
 * ({@link Inbound#decode}, which reports a bad body as {@link Inbound.BadBodyException}): an
 * input's first byte picks the message, the rest is its body.
 */
public final class ProtobufBodies {
    private final List<Parser<?>> parsers;

    public ProtobufBodies(List<Parser<?>> parsers) {
        this.parsers = List.copyOf(parsers);
    }

    public void check(byte[] input) throws Throwable {
        if (input.length == 0) {
            return;
        }
        Parser<?> parser = parsers.get(Byte.toUnsignedInt(input[0]) % parsers.size());
        Inbound message = new Inbound(1, 0, Kind.REQUEST, 1, ByteString.copyFrom(Arrays.copyOfRange(input, 1, input.length)));
        DecoderContract.check(input, () -> message.decode(parser), Inbound.BadBodyException.class);
    }
}
