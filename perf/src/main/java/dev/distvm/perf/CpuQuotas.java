package dev.distvm.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cgroup (v1 {@code cpu} controller) per emulated node, each allowed {@code cpus} of a CPU per
 * period. The period is short (5 ms by default rather than the kernel's 100 ms) so that a node
 * that used its quota waits at most a few milliseconds, as a slow CPU would, instead of stalling
 * for most of 100 ms with messages to it waiting. A JVM started in such a group sees the quota
 * (its available processors are the quota rounded up), as it would on a host of that size.
 */
final class CpuQuotas implements AutoCloseable {
    private static final Path CPU_CONTROLLER = Path.of("/sys/fs/cgroup/cpu");
    private static final int MINIMUM_QUOTA_MICROS = 1_000;

    private final List<Path> groups = new ArrayList<>();

    private CpuQuotas() {}

    /**
     * Creates {@code count} groups named {@code prefix}, this JVM's pid and the node's number.
     *
     * @throws IllegalStateException naming what is missing (the controller, root, a quota too small)
     */
    static CpuQuotas create(String prefix, int count, double cpus, int periodMicros) throws IOException {
        if (!Files.isWritable(CPU_CONTROLLER.resolve("cpu.cfs_quota_us"))) {
            throw new IllegalStateException(Files.exists(CPU_CONTROLLER.resolve("cpu.cfs_quota_us"))
                    ? "CPU quotas need root (writing under " + CPU_CONTROLLER + ")"
                    : "CPU quotas need the cgroup v1 cpu controller mounted at " + CPU_CONTROLLER
                            + " (mount -t cgroup -o cpu cgroup " + CPU_CONTROLLER + ")");
        }
        long quota = Math.round(cpus * periodMicros);
        if (quota < MINIMUM_QUOTA_MICROS) {
            throw new IllegalStateException("a quota of " + cpus + " CPU in a period of " + periodMicros
                    + " us is " + quota + " us, below the kernel's minimum of " + MINIMUM_QUOTA_MICROS
                    + " us: give a longer period or more CPU");
        }
        removeLeftoversOfDeadRuns(prefix);
        CpuQuotas quotas = new CpuQuotas();
        long pid = ProcessHandle.current().pid();
        try {
            for (int i = 0; i < count; i++) {
                Path group = CPU_CONTROLLER.resolve(prefix + pid + "-n" + i);
                Files.createDirectories(group);
                quotas.groups.add(group);
                // The period first: a quota above the current period's length is refused.
                Files.writeString(group.resolve("cpu.cfs_period_us"), Integer.toString(periodMicros));
                Files.writeString(group.resolve("cpu.cfs_quota_us"), Long.toString(quota));
            }
            return quotas;
        } catch (IOException | RuntimeException e) {
            quotas.close();
            throw e;
        }
    }

    /** The groups of runs that ended without removing them (killed); a group still in use stays. */
    private static void removeLeftoversOfDeadRuns(String prefix) throws IOException {
        Pattern ours = Pattern.compile(Pattern.quote(prefix) + "(\\d+)-n\\d+");
        try (var groups = Files.list(CPU_CONTROLLER)) {
            for (Path group : groups.toList()) {
                Matcher leftover = ours.matcher(group.getFileName().toString());
                if (leftover.matches() && ProcessHandle.of(Long.parseLong(leftover.group(1))).isEmpty()) {
                    try {
                        Files.deleteIfExists(group);
                    } catch (IOException e) {
                        // a process of that run still lives in it: the next run tries again
                    }
                }
            }
        }
    }

    /** {@code command} run inside node {@code i}'s group (and every process it starts with it). */
    List<String> confine(int i, List<String> command) {
        List<String> confined = new ArrayList<>(List.of("sh", "-c",
                "echo $$ > '" + groups.get(i).resolve("cgroup.procs") + "' && exec \"$@\"", "sh"));
        confined.addAll(command);
        return confined;
    }

    /** Removes the groups; the processes in them must have ended (the kernel refuses to remove a group in use). */
    @Override
    public void close() {
        for (Path group : groups) {
            try {
                Files.deleteIfExists(group);
            } catch (IOException e) {
                System.err.println("could not remove " + group + " (" + e.getMessage() + "); rmdir it when its processes end");
            }
        }
    }
}
