package dev.distvm.objectspace;

/**
 * Global ids of shared things: the node that shared a thing first numbers it, with its node id in
 * the high bits, so no registry is needed and every node's numbers are its own.
 */
final class Ids {
    private static final int NODE_SHIFT = 40;

    private Ids() {}

    static long of(int node, long sequence) {
        if (node <= 0) {
            throw new IllegalStateException("this node has no id yet (it has not joined the cluster), so it cannot share");
        }
        return ((long) node << NODE_SHIFT) | sequence;
    }

    static int node(long id) {
        return (int) (id >>> NODE_SHIFT);
    }
}
