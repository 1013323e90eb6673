/**
 * The public API for programs that want control over distribution (DESIGN.md §6): {@link dev.distvm.Cluster}
 * lists the nodes and runs static methods on a chosen one. Unmodified programs need none of it.
 */
package dev.distvm;
