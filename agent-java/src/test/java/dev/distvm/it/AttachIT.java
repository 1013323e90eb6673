package dev.distvm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.VirtualMachine;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * dist.jar loaded into a running JVM (the Attach API, as jcmd's JVMTI.agent_load does) with a bad
 * option, and with good ones: each attach fails at the attaching side, the JVM says why on its
 * standard error, and it runs on as if nothing happened (a bad option once ended it; good ones
 * started a cluster that placed nothing).
 */
class AttachIT {
    @Test
    void attachingChangesNothingAndNeverEndsTheJvm() throws Exception {
        List<String> javaOptions = List.of("-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading");
        try (Jvm target = Jvm.plain(javaOptions, Jvm.TEST_CLASSES.toString(), "itapp.Echo")) {
            target.awaitLine("^ready$", Duration.ofSeconds(30));
            for (String options : new String[] {"nodez=2", "nodes=2", ""}) {
                VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
                try {
                    assertThrows(AgentInitializationException.class, () -> vm.loadAgent(Jvm.DIST_JAR.toString(), options),
                            "attach with '" + options + "' reported success\n" + target.output());
                } finally {
                    vm.detach();
                }
            }
            OutputStream stdin = target.process().getOutputStream();
            stdin.write("still here\n".getBytes(StandardCharsets.UTF_8));
            stdin.close();
            assertEquals(0, target.awaitExit(Duration.ofSeconds(30)), target.output());
            assertEquals(List.of("ready", "echo still here", "done"), target.stdout(), target.output());
            // After the exit: by then the target's standard error was read to its end.
            assertTrue(target.stderr().contains("[dist] error: unknown dist agent option 'nodez'"), target.output());
            long refusals = target.stderr().stream()
                    .filter(line -> line.startsWith("[dist] error: dist cannot make a running JVM a node")).count();
            assertEquals(2, refusals, target.output());
            assertTrue(target.stderr().stream().noneMatch(line -> line.contains("cluster of")), target.output());
        }
    }
}
