/** The mpiJava 1.2 API: programs written for it run unchanged, on ranks in separate JVMs or as threads. */
package mpi;
