/**
 * MPI test programs for collectives and communicator creation: data movement, reductions, new
 * communicators and misuse.
 */
package mpitest.collectives;
