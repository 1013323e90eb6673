package dev.distvm.coordinator;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/**
 * The second opinion of failure detection: a node that falls silent but whose process is alive on
 * this host is slow (a busy CPU, a long GC pause, JVMs starting on every core), not dead. Silence
 * alone only makes it a suspect; it is declared dead when its process is gone, when it is on
 * another host (where this check cannot look), or when even a live process stayed silent for
 * {@link #patience}. A busy machine must never end a run that would have finished.
 */
final class LocalProcesses {
    /** This host's name, as nodes report it when they join. */
    static final String HOST = hostName();

    private LocalProcesses() {}

    /** Whether process {@code pid} of {@code host} is alive, as far as this host can tell (false if it cannot). */
    static boolean alive(String host, long pid) {
        return HOST.equals(host) && pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** How long a node whose process is alive here may stay silent: long enough for any pause a loaded machine makes. */
    static Duration patience(Duration failureTimeout) {
        Duration tenfold = failureTimeout.multipliedBy(10);
        Duration minute = Duration.ofMinutes(1);
        return tenfold.compareTo(minute) > 0 ? tenfold : minute;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return ManagementFactory.getRuntimeMXBean().getName();
        }
    }
}
