/**
 * Samples: synchronized methods and synchronized blocks in hot loops, each thread first on a
 * monitor of its own, then all on one.
 */
package samples.sync;
