/**
 * The public API for programs that want control over distribution (DESIGN.md §6): {@link dist.Cluster}
 * lists the nodes and runs static methods on a chosen one. Unmodified programs need none of it.
 */
package dist;
