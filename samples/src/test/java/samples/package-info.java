/**
 * Tests of the samples module as a whole: each sample's output against the single-JVM truth, and
 * that samples and benchmarks need no agent package.
 */
package samples;
