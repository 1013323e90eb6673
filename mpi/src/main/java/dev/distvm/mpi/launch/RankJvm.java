package dev.distvm.mpi.launch;

import dev.distvm.common.ChildJvm;
import java.io.File;
import java.util.ArrayList;
import java.util.List;

/** The JVM of one rank, started by mpirun on its own host or by a daemon on another: how it starts and stops. */
final class RankJvm {
    private RankJvm() {}

    /** This host's java running {@code mainClass} with dist.jar after the program's class path. */
    static ProcessBuilder command(List<String> javaOptions, List<String> classPath, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(ChildJvm.java());
        command.addAll(javaOptions);
        List<String> withDist = new ArrayList<>(classPath);
        withDist.add(ChildJvm.distJar().toString());
        command.add("-cp");
        command.add(String.join(File.pathSeparator, withDist));
        command.add(mainClass);
        command.addAll(args);
        return new ProcessBuilder(command);
    }

    /** Stops a rank and whatever it started. */
    static void destroy(Process rank) {
        rank.descendants().forEach(ProcessHandle::destroyForcibly);
        rank.destroyForcibly();
    }
}
