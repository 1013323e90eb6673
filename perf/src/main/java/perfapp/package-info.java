/**
 * Ordinary programs that the benchmarks run under the agent: the object space's unit costs
 * measured from inside a program, and a runner that repeats a program's main in one JVM to time
 * it once compiled, and the probe that tells when a program's main began.
 */
package perfapp;
