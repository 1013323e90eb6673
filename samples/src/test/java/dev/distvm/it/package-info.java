/**
 * The samples' integration test: every single-system-image sample, unmodified, on 2 and 4 nodes
 * prints what it prints on a plain JVM.
 */
package dev.distvm.it;
