/**
 * MPI test programs written as programs for MPJ Express are: its additions to mpiJava 1.2, an
 * unchecked {@code MPIException}, a main class that is not public.
 */
package mpitest.compat;
