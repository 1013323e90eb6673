package dev.distvm.node;

import dev.distvm.common.ChildJvm;
import dev.distvm.common.StartupArchive;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.TcpAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts the worker JVMs of a local cluster: the same java, dist.jar (nothing of the application:
 * workers load its classes from the home), the native agent when the home has it, and the home's
 * pid so that a worker ends with its home however the home ends. A worker's output goes to the
 * home's standard error, never into the program's standard output.
 */
final class WorkerLauncher {
    private WorkerLauncher() {}

    static List<Process> launch(int count, String coordinator, ClusterSecret secret, AgentOptions options) throws IOException {
        Path distJar = ChildJvm.distJar();
        List<String> command = new ArrayList<>();
        command.add(ChildJvm.java());
        command.addAll(StartupArchive.jvmOptions(distJar));
        nativeAgent(distJar).ifPresent(lib -> command.add("-agentpath:" + lib));
        command.add("-javaagent:" + distJar + "=role=worker,join=" + coordinator
                + ",parent=" + ProcessHandle.current().pid()
                + ",failure-timeout=" + options.failureTimeout().toMillis()
                + ",verbose=" + options.verbose()
                + ",encrypt=" + options.encrypt()
                + addressOptions(coordinator, options));
        command.add("-cp");
        command.add(distJar.toString());
        command.add("dev.distvm.agent.WorkerMain");
        List<Process> workers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put(ClusterSecret.ENV, secret.value());
            Process worker = builder.start();
            ChildJvm.forwardLines(worker.getInputStream(), System.err, "", "dist-worker-output-" + worker.pid());
            workers.add(worker);
        }
        return workers;
    }

    /**
     * Local workers listen on loopback, unless their coordinator is not on it: nodes on other hosts
     * must then reach them too, at the home's host (each on a free port of its own).
     */
    static String addressOptions(String coordinator, AgentOptions options) {
        if (TcpAddress.isLoopback(coordinator)) {
            return "";
        }
        return ",bind=" + TcpAddress.withoutPort(options.bind())
                + (options.advertise() == null ? "" : ",advertise=" + TcpAddress.withoutPort(options.advertise()));
    }

    /**
     * The native agent this JVM was started with, else the one beside dist.jar, if any. (The
     * command line from /proc: the management beans that also tell it cost tens of milliseconds
     * of start-up.)
     */
    private static Optional<String> nativeAgent(Path distJar) {
        for (String argument : ProcessHandle.current().info().arguments().orElse(new String[0])) {
            if (argument.startsWith("-agentpath:") && argument.contains("distjvmti")) {
                return Optional.of(argument.substring("-agentpath:".length()));
            }
        }
        Path beside = distJar.resolveSibling("libdistjvmti.so");
        return Files.isRegularFile(beside) ? Optional.of(beside.toString()) : Optional.empty();
    }
}
