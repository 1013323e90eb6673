/**
 * MPI programs that the benchmarks run as ranks. They live outside dist's own packages, which
 * threads-mode ranks share instead of loading each for themselves.
 */
package mpibench;
