/**
 * Sample: travelling salesman by branch and bound over a shared job queue and a shared minimum
 * (Manta).
 */
package samples.tsp;
