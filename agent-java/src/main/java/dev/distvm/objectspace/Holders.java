package dev.distvm.objectspace;

/**
 * How one node names the shared things it holds: global ids to instances and back. At the home the
 * instances are the masters; on a worker they are copies (and the worker's own objects once a
 * release has pushed them home).
 */
interface Holders {
    /** The id of a shared holder, or 0 when it is not shared. */
    long idOf(Object holder);

    /** The holder with that id, or null when this node has none. */
    Object byId(long id);

    /** No lease holds a holder's monitor from the moment it is pushed home. */
    int NO_LEASE = -1;

    /**
     * What sharing a holder found when the destination does not have it yet: its twin, so that
     * its state goes in the same message, and on a worker pushing one of its own objects home while
     * a thread there holds its monitor, the lease that holds the master's from the start.
     */
    final class Pushed {
        Twin state;
        int leaseFromBirth = NO_LEASE;
        /**
         * For a large array the destination gets on demand: which of its chunks it lacks (non-zero
         * flags); the message then carries these flags instead of the values, and {@link #state} is
         * the zeros the destination's new array holds.
         */
        byte[] absentChunks;
    }

    /**
     * The id to write for {@code holder} in a message to {@code node}, sharing it first if it is
     * not shared yet; when the destination does not have the holder yet, {@code pushed} says what
     * goes with it.
     */
    long share(Object holder, Pushed pushed);

    /**
     * Registers the local instance made for a holder that a message carries and this node did not
     * have; {@code identityHash} is the hash it has on the node that shared it, which
     * {@code System.identityHashCode} must answer here too.
     */
    void adopt(long id, Kind kind, Object instance, int identityHash);

    /** The identity hash of a holder as the whole cluster sees it. */
    int identityHash(Object holder);

    /**
     * How many bytes of arrays sent on demand one message may make here: such an array is made
     * without its values (a flag per chunk travels), so this, not the message's size, bounds it.
     */
    long onDemandAllowance();

    /** The class loader of the program's classes on this node. */
    ClassLoader loader();

    enum Kind { OBJECT, ARRAY, STATICS }
}
