package dev.distvm.agent;

import dev.distvm.common.ChildJvm;
import dev.distvm.common.Log;
import dev.distvm.node.AgentOptions;
import dev.distvm.node.HomeNode;
import dev.distvm.node.StartupException;
import dev.distvm.node.WorkerNode;
import dev.distvm.objectspace.ObjectSpace;
import dev.distvm.profile.AttachedProfiler;
import dev.distvm.profile.ProfileOptions;
import dev.distvm.profile.RunProfiler;
import dev.distvm.transport.TransportException;
import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The entry of {@code -javaagent:dist.jar=...}: validates the options, installs the class
 * transformer and starts this JVM's node. A bad option or a failed start stops the JVM with a
 * message that names the cause and the fix. Attached to a running JVM ({@link #agentmain}) dist
 * profiles it for {@code ./dist attach}, or else changes nothing, and never ends the JVM.
 */
public final class Agent {
    private Agent() {}

    public static void premain(String arguments, Instrumentation instrumentation) {
        start(arguments, instrumentation);
    }

    /**
     * Attached by {@code ./dist attach} (its options say where to report), dist profiles the JVM
     * for a while and gives its classes back (dev.distvm.profile.AttachedProfiler). Attached any other
     * way (jcmd JVMTI.agent_load with node options), it changes nothing: a running JVM cannot become
     * a node, its classes are loaded unrewritten and its threads and objects exist already, so a
     * cluster would place nothing (attached, dist once started one that did just that). Either way
     * no failure ends the JVM: a bad option once did, as it does at start-up.
     */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        String problem;
        if (ProfileOptions.isProfileRequest(arguments)) {
            try {
                AttachedProfiler.start(ProfileOptions.parse(arguments), instrumentation);
                return;
            } catch (ProfileOptions.InvalidOptionException e) {
                problem = e.getMessage();
            } catch (IOException | RuntimeException e) {
                problem = "could not reach ./dist attach to report to (" + e + ")";
            }
        } else {
            try {
                AgentOptions.parse(arguments);
                problem = "dist cannot make a running JVM a node: it runs a program across nodes only when the JVM"
                        + " starts with it (java -javaagent:dist.jar=nodes=N ..., or ./dist run); to profile this JVM,"
                        + " ./dist attach PID";
            } catch (AgentOptions.InvalidOptionException e) {
                problem = e.getMessage();
            }
        }
        problem += "; nothing in this JVM was changed";
        System.err.println("[dist] error: " + problem);
        throw new UnsupportedOperationException("dist: " + problem);
    }

    /**
     * The object space reads a Thread's task and gives copies of Thread subclasses a thread state
     * (dev.distvm.objectspace.ThreadTasks, Instances): that needs java.lang's private fields, opened to dist only;
     * and asks whether a class was initialized without initializing it (StaticsInReach), which
     * only jdk.internal.misc.Unsafe tells, exported to dist only.
     */
    private static void openThreadInternals(Instrumentation instrumentation) {
        Module distModule = Agent.class.getModule();
        instrumentation.redefineModule(Thread.class.getModule(), Set.of(), Map.of("jdk.internal.misc", Set.of(distModule)),
                Map.of("java.lang", Set.of(distModule)), Set.of(), Map.of());
    }

    /**
     * {@code ./dist run} puts dist.jar first on the program's class path, where the start-up
     * archive needs it (dev.distvm.common.StartupArchive); the program is shown the class path it
     * was given, as a plain JVM would show it.
     */
    private static void showTheProgramItsClassPath() {
        String classPath = System.getProperty("java.class.path", "");
        int end = classPath.indexOf(File.pathSeparatorChar);
        if (end > 0 && Path.of(classPath.substring(0, end)).toAbsolutePath().normalize()
                .equals(ChildJvm.distJar().normalize())) {
            System.setProperty("java.class.path", classPath.substring(end + 1));
        }
    }

    private static void start(String arguments, Instrumentation instrumentation) {
        ProtobufUnsafeGuard.install(instrumentation);
        AgentOptions options;
        try {
            options = AgentOptions.parse(arguments);
        } catch (AgentOptions.InvalidOptionException e) {
            System.err.println("[dist] error: " + e.getMessage());
            System.exit(2);
            return;
        }
        Log.verbose(options.verbose() || Log.isVerbose());
        ObjectSpace.declareRole(options.role() == AgentOptions.Role.WORKER);
        openThreadInternals(instrumentation);
        try {
            if (options.profile() != null) {
                RunProfiler.install(instrumentation, options.profileRate());
            }
            ApplicationTransformer.install(instrumentation);
            ObjectSpace.prepareInBackground();
            if (options.role() == AgentOptions.Role.HOME) {
                showTheProgramItsClassPath();
                HomeNode.start(options, Thread.currentThread());
            } else {
                WorkerWarmUp.start(WorkerNode.start(options).encrypted());
                // premain returns, so that the JVM goes on to start what comes after the agents (a
                // flight recording of -XX:StartFlightRecording, the attach listener); the main
                // thread then stays in WorkerMain until the worker ends.
            }
        } catch (StartupException | TransportException e) {
            System.err.println("[dist] error: " + e.getMessage());
            System.exit(1);
        } catch (Exception e) {
            System.err.println("[dist] error: the " + options.role().name().toLowerCase() + " node could not start: " + e);
            System.exit(1);
        }
    }
}
