/**
 * Sample: two phases over shared arrays ordered only by join and start.
 */
package samples.phases;
