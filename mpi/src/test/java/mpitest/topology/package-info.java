/**
 * MPI test programs for Cartesian and graph topologies and inter-communicators, and their misuse.
 */
package mpitest.topology;
