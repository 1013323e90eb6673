/**
 * Sample: many rounds of a small reduction separated by the Java Grande Forum's tournament
 * barrier, which spins on plain array elements behind a volatile field.
 */
package samples.barrier;
