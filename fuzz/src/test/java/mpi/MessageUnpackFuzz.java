package mpi;

import dev.distvm.fuzz.DecoderContract;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * A received MPI payload decoded into a receive buffer as a rank decodes it: whole
 * ({@link TypeLayout#unpack}, after {@link TypeLayout#messageElements} for the status), as it
 * arrives ({@link TypeLayout#decoder}), or as {@code Comm.Unpack} reads a packed buffer
 * ({@link TypeLayout#unpackFrom}). The input's first bytes pick the datatype, the entry point and
 * the receive's count; what is not the receive's fault fails with MPIException.
 */
public final class MessageUnpackFuzz {
    private static final List<Datatype> TYPES = List.of(MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG,
            MPI.FLOAT, MPI.DOUBLE, MPI.OBJECT, MPI.PACKED, MPI.INT2, MPI.DOUBLE2);
    private static final int HEADER = 3;

    private MessageUnpackFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        if (input.length < HEADER) {
            return;
        }
        TypeLayout layout = TYPES.get(Byte.toUnsignedInt(input[0]) % TYPES.size()).layout;
        int entry = Byte.toUnsignedInt(input[1]) % 3;
        int count = Byte.toUnsignedInt(input[2]) % 64;
        byte[] message = Arrays.copyOfRange(input, HEADER, input.length);
        Object buffer = layout.allocate(count);
        DecoderContract.check(input, () -> {
            switch (entry) {
                case 0 -> {
                    layout.messageElements(message);
                    layout.unpack(message, buffer, 0, count);
                }
                case 1 -> {
                    RowDecoder decoder = layout.decoder(buffer, 0, count, message.length, ByteBuffer.wrap(message));
                    if (decoder != null) {
                        decoder.decode(ByteBuffer.wrap(message));
                    }
                }
                default -> layout.unpackFrom(message, 0, buffer, 0, count);
            }
        }, MPIException.class);
    }
}
