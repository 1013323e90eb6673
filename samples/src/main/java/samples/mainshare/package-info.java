/**
 * Sample: main starts helper threads and computes a share of the work itself.
 */
package samples.mainshare;
