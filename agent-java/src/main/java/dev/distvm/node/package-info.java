/**
 * A node's life: starting the home (embedded coordinator, local workers) or a worker, joining the
 * cluster, serving and loading application classes, remote static calls, and each node's report.
 */
package dev.distvm.node;
