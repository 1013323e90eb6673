/**
 * Sample: molecular dynamics in the shape of the Java Grande Forum's multithreaded MolDyn, its steps
 * separated by spin barriers and its per-thread force arrays summed under locks.
 */
package samples.md;
