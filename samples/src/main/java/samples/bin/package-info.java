/**
 * Sample: Manta's bounded buffer, producers and consumers on synchronized put/take with
 * wait/notifyAll.
 */
package samples.bin;
