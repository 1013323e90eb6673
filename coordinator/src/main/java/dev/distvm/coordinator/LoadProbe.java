package dev.distvm.coordinator;

import dev.distvm.coordinator.proto.Load;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * Measures this JVM's load for the heartbeat: CPU use, runnable threads, heap. The management
 * beans are made at the first sample, on the heartbeat's thread: making them costs tens of
 * milliseconds that a node's start-up does not wait for.
 */
public final class LoadProbe {
    private ThreadMXBean threads;
    private java.lang.management.OperatingSystemMXBean os;

    public synchronized Load sample() {
        if (threads == null) {
            threads = ManagementFactory.getThreadMXBean();
            os = ManagementFactory.getOperatingSystemMXBean();
        }
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return Load.newBuilder()
                .setCpu(processCpu())
                .setRunnableThreads(runnableThreads())
                .setHeapUsed(heap.getUsed())
                .setHeapMax(Math.max(heap.getMax(), heap.getCommitted()))
                .setProcessors(Runtime.getRuntime().availableProcessors())
                .build();
    }

    private double processCpu() {
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            double load = sun.getProcessCpuLoad();
            return load < 0 ? 0 : load;
        }
        return 0;
    }

    private int runnableThreads() {
        int runnable = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadState() == Thread.State.RUNNABLE) {
                runnable++;
            }
        }
        return runnable;
    }
}
