/**
 * The remote-access profiler of a JVM dist is attached to ({@code ./dist attach PID}): which code
 * touches which objects, from how many threads. Sites are found by the rewriter's profiling rewrite
 * ({@link dev.distvm.rewriter.AccessProfilingRewriter}), counted here by sampling
 * ({@link dev.distvm.profile.AccessHooks}), and reported to the attaching command
 * ({@link dev.distvm.profile.AttachedProfiler}), which removes the rewrite before it reports.
 */
package dev.distvm.profile;
