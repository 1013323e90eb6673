package mpi;

import dev.distvm.fuzz.DecoderContract;

/**
 * MPI.OBJECT elements deserialized from a message ({@link TypeObjects#deserialize}, the one place a
 * Java serialization stream from another rank is read): a refused class, a damaged stream or one
 * beyond the limits fails with MPIException. The first byte is the number of objects asked for.
 */
public final class ObjectMessageFuzz {
    private ObjectMessageFuzz() {}

    public static void fuzzerTestOneInput(byte[] input) throws Throwable {
        if (input.length < 1) {
            return;
        }
        int n = Byte.toUnsignedInt(input[0]) % 16;
        DecoderContract.check(input, () -> TypeObjects.deserialize(input, 1, input.length - 1, n), MPIException.class);
    }
}
