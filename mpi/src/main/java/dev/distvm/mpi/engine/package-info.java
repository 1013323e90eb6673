/**
 * The MPI message engine: one messenger per rank that matches messages to posted receives in MPI's
 * order and moves them through a device (sockets between JVMs, shared memory between threads). It
 * sees bytes only, never a Java object or an {@code mpi} type.
 */
package dev.distvm.mpi.engine;
