/**
 * MPI test programs for point-to-point messages: every send mode, ordering, probes, cancellation,
 * large messages and a failing rank.
 */
package mpitest.p2p;
