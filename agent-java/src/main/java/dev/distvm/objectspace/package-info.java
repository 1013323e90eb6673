/**
 * The global object space (DESIGN.md §3, §4): shared objects homed at the home and cached as copies
 * on workers, kept coherent at acquire and release; monitors of shared objects held at the home by
 * delegates; threads placed on workers. {@link dev.distvm.objectspace.Hooks} is what rewritten
 * application code calls.
 */
package dev.distvm.objectspace;
