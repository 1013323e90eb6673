/**
 * Process-wide plumbing every module shares: the log sink, daemon threads, starting child JVMs.
 * It sits in the lowest module so that nothing above has to depend on the transport for it.
 */
package dev.distvm.common;
