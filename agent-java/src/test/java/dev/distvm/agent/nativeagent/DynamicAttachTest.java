package dev.distvm.agent.nativeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Attaches the agent, asked for local variable access, to a fresh JVM that started without it,
 * where the VM no longer grants that: it must be reported, not fatal.
 */
class DynamicAttachTest {

    @Test
    void attachedAgentBindsNativesAndReportsLocalAccessMissing() throws Exception {
        Process child =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Djdk.attach.allowAttachSelf=true",
                                // JDK 21+ warns on dynamic loading unless told it is intended
                                "-XX:+IgnoreUnrecognizedVMOptions",
                                "-XX:+EnableDynamicAgentLoading",
                                "-cp",
                                System.getProperty("java.class.path"),
                                SelfAttach.class.getName(),
                                agentLibrary())
                        .redirectErrorStream(true)
                        .start();
        child.getOutputStream().close();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), output);
        assertEquals(0, child.exitValue(), output);

        List<String> lines = output.lines().toList();
        assertTrue(lines.contains("loaded before attach: false"), output);
        assertTrue(lines.contains("loaded after attach: true"), output);
        assertTrue(lines.contains("missing: []"), output); // what the agent asks for by default, it gets
        assertTrue(lines.contains("frame 0: main"), output);
        assertTrue(
                lines.contains(
                        "locals: IllegalStateException: can_access_local_variables was not obtained:"
                                + " load the dist agent at JVM startup with"
                                + " -agentpath:/path/to/libdistjvmti.so=locals (a JVM grants it only then,"
                                + " not on dynamic attach)"),
                output);
        assertTrue(
                output.contains(
                        "dist agent: capabilities not available: can_access_local_variables (local"
                                + " variable access needs the agent loaded at startup with -agentpath)"),
                output);
    }

    /** The library this JVM was started with, so the child loads the very same build. */
    private static String agentLibrary() {
        String prefix = "-agentpath:";
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith(prefix)) {
                String path = arg.substring(prefix.length());
                int options = path.indexOf('=');
                return options < 0 ? path : path.substring(0, options);
            }
        }
        throw new IllegalStateException("this JVM was not started with -agentpath");
    }

    /** Child JVM: attaches the agent to itself, then reports what it sees on stdout. */
    static final class SelfAttach {
        public static void main(String[] args) throws Exception {
            System.out.println("loaded before attach: " + NativeAgent.isLoaded());

            VirtualMachine self = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
            try {
                self.loadAgentPath(args[0], "verbose,locals");
            } finally {
                self.detach();
            }

            System.out.println("loaded after attach: " + NativeAgent.isLoaded());
            System.out.println("missing: " + NativeAgent.missingCapabilities());
            System.out.println("frame 0: " + NativeAgent.currentFrames(0)[0].methodName());
            try {
                NativeAgent.currentLocals(0, "L");
                System.out.println("locals: read without the capability");
            } catch (IllegalStateException e) {
                System.out.println("locals: IllegalStateException: " + e.getMessage());
            }
        }
    }
}
