/**
 * Sample: pi by numerical integration, one thread per slice (JESSICA).
 */
package samples.pi;
