/** The MPI engine behind the {@code mpi} API: ranks' messengers, matching, devices, and {@code dist mpirun}. */
package dist.mpi;
