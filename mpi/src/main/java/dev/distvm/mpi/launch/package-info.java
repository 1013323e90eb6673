/** {@code dist mpirun}: starts an MPI job's ranks as JVMs of this host or as threads of one JVM. */
package dev.distvm.mpi.launch;
