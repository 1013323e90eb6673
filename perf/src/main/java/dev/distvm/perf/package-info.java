/**
 * The benchmarks behind {@code ./dist perf}: each measures dist against a baseline taken in the
 * same run (a raw socket, a plain JVM, one node) and prints the ratio; results and the commands
 * that produced them are in {@code perf/RESULTS.md}.
 */
package dev.distvm.perf;
