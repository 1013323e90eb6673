/**
 * The mpiJava 1.2 API: environment, communicators, datatypes, operations, groups and requests, with
 * mpiJava's names. Its classes turn Java buffers into bytes for the engine ({@code dev.distvm.mpi.engine})
 * through the datatype layer (package-private here: {@code TypeLayout}, {@code TypeMap}, {@code TypeBuffer}, {@code TypeObjects}); only the types mpiJava defines are public.
 */
package mpi;
