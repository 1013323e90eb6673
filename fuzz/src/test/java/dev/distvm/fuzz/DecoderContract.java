package dev.distvm.fuzz;

import java.lang.management.ManagementFactory;

/**
 * What every decoder of bytes from the network promises, checked on one input: it decodes, or it
 * throws one of the exception types its documentation names (the handler above turns those into an
 * error reply); never another exception or error; and it allocates no more than the input
 * justifies, so that a small frame announcing a huge count costs nothing. A hang is the driver's
 * to catch ({@code -timeout}).
 */
public final class DecoderContract {
    /** Room for what decoding any input needs (a class loaded, a string built), whatever its size. */
    private static final long FIXED_ALLOWANCE = 1 << 20;
    /** Bytes of Java heap a decoder may allocate per input byte (boxes, arrays of references, records). */
    private static final long PER_INPUT_BYTE = 64;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private DecoderContract() {}

    /** Something that decodes; what it decodes into does not matter here. */
    @FunctionalInterface
    public interface Decoding {
        void run() throws Exception;
    }

    /**
     * Runs {@code decoding} of {@code input} (which must be able to run again); returns normally
     * when it decoded or threw one of {@code documented}, and throws (a finding for Jazzer) otherwise.
     */
    @SafeVarargs
    public static void check(byte[] input, Decoding decoding, Class<? extends Throwable>... documented) throws Throwable {
        long allowed = FIXED_ALLOWANCE + PER_INPUT_BYTE * input.length;
        long allocated = allocatedBy(decoding, input, documented);
        if (allocated > allowed) {
            // The first decoding of its kind loads (and Jazzer instruments) classes: only a second
            // decoding that allocates as much is the decoder's doing.
            allocated = allocatedBy(decoding, input, documented);
            if (allocated > allowed) {
                throw new AssertionError("decoding " + input.length + " bytes allocated " + allocated
                        + " bytes, more than the " + allowed + " the input justifies");
            }
        }
    }

    private static long allocatedBy(Decoding decoding, byte[] input, Class<? extends Throwable>[] documented)
            throws Throwable {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            decoding.run();
        } catch (OutOfMemoryError e) {
            throw new AssertionError("decoding " + input.length + " bytes ran out of memory", e);
        } catch (Throwable t) {
            if (!isDocumented(t, documented)) {
                throw t;
            }
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    private static boolean isDocumented(Throwable t, Class<? extends Throwable>[] documented) {
        for (Class<? extends Throwable> type : documented) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
