package dev.distvm.agent;

import java.lang.instrument.Instrumentation;

/**
 * Runs before {@code main} when dist.jar itself is started with {@code java -jar dist.jar ...}
 * (the CLI), so that the CLI's protobuf is guarded like the agent's. Starts no node.
 */
public final class LauncherAgent {
    private LauncherAgent() {}

    public static void agentmain(String arguments, Instrumentation instrumentation) {
        ProtobufUnsafeGuard.install(instrumentation);
    }
}
