/**
 * Multi-JVM integration tests of dist.jar: clusters started as real JVMs (cluster life,
 * coordinator, remote class loading, JMM conformance, standard input, distributed GC, what dist
 * refuses, mpirun), and their helpers for starting JVMs and reading run reports, which the
 * samples module reuses through this module's test jar.
 */
package dev.distvm.it;
