package dev.distvm.agent.nativeagent;

/**
 * One frame of a thread's stack as {@link NativeAgent#currentFrames(int)} reports it. Instances
 * are created by the native agent.
 *
 * @param className the declaring class's binary name, as {@link Class#getName()} returns it
 * @param methodName the method's name, e.g. {@code <init>} for a constructor
 * @param descriptor the method's descriptor, e.g. {@code (I[Ljava/lang/String;)V}
 * @param bci the bytecode index the frame is executing, or -1 in a native method
 * @param lineNumber the source line of {@code bci}, or -1 when unknown (native method, or class
 *     compiled without line numbers)
 */
public record Frame(String className, String methodName, String descriptor, int bci, int lineNumber) {}
