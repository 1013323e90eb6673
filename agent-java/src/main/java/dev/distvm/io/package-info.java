/**
 * Location-dependent streams stay home: a worker's {@code System.out}, {@code System.err} and
 * {@code System.in} are the home's, and the home prints and reads for its workers.
 */
package dev.distvm.io;
