/**
 * Sample mpiJava 1.2 programs for {@code dist mpirun}: Jacobi iteration on a Cartesian topology,
 * the JMPI thesis's Mandelbrot master/slave and ping-pong.
 */
package samples.mpi;
