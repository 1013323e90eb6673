/**
 * Sample: LU factorization with partial pivoting in the shape of the Java Grande Forum's
 * multithreaded LUFact, its steps separated by a spin barrier.
 */
package samples.lu;
