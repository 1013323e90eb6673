package dev.distvm.objectspace;

import java.util.function.IntPredicate;

/**
 * The nodes whose object-space messages this node takes: at the home its workers, on a worker its
 * home. Anyone else who holds the cluster secret (a stray process, a node that names itself by
 * another's id it does not hold) is refused before its message is decoded, so it can neither
 * pollute the home's view of a worker nor end the run with a malformed release.
 *
 * @param who     what an accepted sender is, for the refusal's message
 * @param accepts whether a node id is one
 */
record Senders(String who, IntPredicate accepts) {}
