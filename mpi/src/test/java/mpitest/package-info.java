/**
 * Self-checking MPI test programs and their runner: each program checks its own results on every
 * rank and runs with ranks as threads (unit tests) and as processes (integration tests).
 */
package mpitest;
