/**
 * Sample: hundreds of short threads, all alive at once, contending for one monitor.
 */
package samples.crowd;
