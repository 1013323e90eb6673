/**
 * Samples: red/black successive over-relaxation, with a barrier built from wait/notifyAll and,
 * pipelined as in the Java Grande Forum, with volatile progress counters that threads spin on.
 */
package samples.sor;
