package dev.distvm.agent.nativeagent;

import java.util.List;

/**
 * Java side of {@code libdistjvmti.so}, the JVMTI agent through which dist reads the current
 * thread's frames and local variables.
 *
 * <p>The library must be loaded as an agent, at startup and with the option {@code locals} for
 * local variable access (off by default: with it HotSpot keeps every local variable of compiled
 * code alive, which made the ray tracer sample a tenth slower):
 *
 * <pre>{@code
 * java -agentpath:/path/to/libdistjvmti.so[=verbose,locals] -javaagent:dist.jar ...
 * }</pre>
 *
 * The natives are then bound by HotSpot itself, which looks a native up in agent libraries when
 * the class loader's own libraries lack it; this class never loads the library. Without the agent
 * every native throws {@link UnsatisfiedLinkError} and {@link #isLoaded()} is false. Attached to a
 * running VM ({@code jcmd <pid> JVMTI.agent_load /path/to/libdistjvmti.so}) the agent works, but
 * the VM no longer grants {@code can_access_local_variables}, so {@link #currentLocals} fails.
 *
 * <p><b>Depth.</b> Frames are counted from the caller of these methods: depth 0 is the method
 * that calls {@code currentFrames} or {@code currentLocals}, 1 is its caller, and so on. Every
 * frame the VM has counts, including reflection and hidden frames that {@link Throwable} and the
 * default {@link StackWalker} leave out.
 *
 * <pre>{@code
 * static Object[] snapshot(int count, long total, String name) {
 *     // a static method's parameters take the first slots: count 0, total 1-2, name 3
 *     return NativeAgent.currentLocals(0, "IJ-L");   // {count, total, null, name}
 * }
 *
 * if (NativeAgent.isLoaded()) {
 *     Frame me = NativeAgent.currentFrames(0)[0];    // this method, at this line
 *     Frame caller = NativeAgent.currentFrames(1)[0];
 * }
 * }</pre>
 */
public final class NativeAgent {

    /** Requested only with the agent option {@code locals}: what {@link #currentLocals} needs. */
    public static final String LOCALS_CAPABILITY = "can_access_local_variables";

    /** The JVMTI capabilities dist requests by default, in the order {@link #capabilities()} reports them. */
    public static final List<String> WANTED_CAPABILITIES =
            List.of(
                    "can_get_line_numbers",
                    "can_get_source_file_name",
                    "can_tag_objects",
                    "can_generate_object_free_events",
                    "can_get_current_thread_cpu_time",
                    "can_get_thread_cpu_time");

    // Only a positive answer is kept: a later dynamic attach binds the natives on their next call.
    private static volatile boolean loaded;

    private NativeAgent() {}

    /**
     * Names of the capabilities the VM granted the agent: {@link #LOCALS_CAPABILITY} first when it
     * was asked for and granted, then the {@linkplain #WANTED_CAPABILITIES wanted} ones granted;
     * empty if the library was loaded as a plain library rather than as an agent.
     *
     * @throws UnsatisfiedLinkError if the agent is not loaded
     */
    public static native String[] capabilities();

    /**
     * The current thread's frames, top first, starting {@code skip} frames above the caller:
     * element 0 of {@code currentFrames(0)} is the calling method itself, at the line of the call;
     * element 0 of {@code currentFrames(1)} is its caller. A {@code skip} beyond the bottom of the
     * stack gives an empty array.
     *
     * @throws IllegalArgumentException if {@code skip} is negative
     * @throws IllegalStateException if JVMTI fails; the message names the JVMTI error
     * @throws UnsatisfiedLinkError if the agent is not loaded
     */
    public static native Frame[] currentFrames(int skip);

    /**
     * Reads local variable slots of the current thread's frame at {@code depth} (0 is the caller,
     * as for {@link #currentFrames}). {@code slotTypes} has one character per slot, from slot 0:
     *
     * <ul>
     *   <li>{@code I} int, and also boolean, byte, char and short, which live in int slots
     *   <li>{@code J} long and {@code D} double, each followed by {@code -} for its second slot
     *   <li>{@code F} float
     *   <li>{@code L} object reference
     *   <li>{@code -} a slot not to read
     * </ul>
     *
     * The result has one element per character: the boxed value ({@link Integer}, {@link Long},
     * {@link Float}, {@link Double}, or the object itself), or null for {@code -}. A boolean reads
     * as {@code Integer} 0 or 1. The types must match what the method keeps in each slot; for a
     * class compiled with {@code javac -g} the VM checks them against the local variable table.
     * HotSpot reads each slot in a separate safepoint (a VM operation): not for hot paths.
     *
     * @throws IllegalStateException if the agent was not loaded at startup with {@code
     *     -agentpath:...=locals}, so local variable access was not granted; or if JVMTI fails otherwise
     * @throws IllegalArgumentException if {@code depth} is negative or {@code slotTypes} malformed
     *     (the message names the slot), or if JVMTI rejects the request because of them: no such
     *     frame, a native frame, no such slot, or a type mismatch (the message names the JVMTI
     *     error, e.g. {@code JVMTI_ERROR_TYPE_MISMATCH})
     * @throws NullPointerException if {@code slotTypes} is null
     * @throws UnsatisfiedLinkError if the agent is not loaded
     */
    public static native Object[] currentLocals(int depth, String slotTypes);

    /** Whether the natives are bound, i.e. {@code libdistjvmti.so} was loaded as an agent. */
    public static boolean isLoaded() {
        if (!loaded) {
            try {
                capabilities();
                loaded = true;
            } catch (UnsatisfiedLinkError notAnAgent) {
                // not loaded yet: answer false, and ask again next time
            }
        }
        return loaded;
    }

    /**
     * The {@linkplain #WANTED_CAPABILITIES wanted} capabilities the agent does not have, in the
     * same order; all of them if the agent is not loaded (empty with {@code -agentpath} and after
     * a dynamic attach alike: what a VM grants only at startup is {@link #LOCALS_CAPABILITY}).
     */
    public static List<String> missingCapabilities() {
        List<String> granted = isLoaded() ? List.of(capabilities()) : List.of();
        return WANTED_CAPABILITIES.stream().filter(name -> !granted.contains(name)).toList();
    }
}
