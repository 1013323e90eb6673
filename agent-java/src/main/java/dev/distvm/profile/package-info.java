/**
 * The remote-access profiler: which code reads or writes objects another thread wrote since, the
 * accesses that would cross the network with the threads on different nodes. For a JVM dist is
 * attached to ({@code ./dist attach PID}: {@link dev.distvm.profile.AttachedProfiler}, which removes
 * its rewrite before it reports) and for a one-node run ({@code profile=}:
 * {@link dev.distvm.profile.RunProfiler}). Sites are found by the rewriter's profiling rewrite
 * ({@link dev.distvm.rewriter.AccessProfilingRewriter}) and sampled by {@link dev.distvm.profile.AccessHooks};
 * the same samples predict the remote share at 2, 4 and 8 nodes under dist's placement
 * ({@link dev.distvm.profile.PredictedPlacement}). The report is a summary, JSON, or an HTML page
 * with charts ({@link dev.distvm.profile.ProfileFiles}).
 */
package dev.distvm.profile;
