package dev.distvm.it;

import com.google.protobuf.Int32Value;
import dev.distvm.transport.ClusterSecret;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A node's endpoint alone in a JVM of its own, the target of the attack tests: it serves
 * {@link #ECHO} (counting what it served) and answers queries on standard input, one per line,
 * {@code QUERY ID}, with {@code QUERY ID = VALUE}: {@code heap} (bytes used after a full GC),
 * {@code peak} (the most bytes used since the previous {@code heap} or {@code peak}, even if a GC,
 * or an allocation that failed, has freed them since), {@code served}, {@code rejected}.
 */
public final class EndpointTarget {
    static final int ECHO = 1;

    private EndpointTarget() {}

    public static void main(String[] args) throws Exception {
        AtomicLong served = new AtomicLong();
        try (Endpoint endpoint = Endpoint.open(TransportConfig.loopback(ClusterSecret.fromEnvironment()))) {
            endpoint.registerImmediate(ECHO, message -> {
                served.incrementAndGet();
                return Int32Value.of(message.decode(Int32Value.parser()).getValue() + 1);
            });
            System.out.println("listening at " + endpoint.address());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] query = line.split(" ");
                long value = switch (query[0]) {
                    case "heap" -> usedHeapAfterGc();
                    case "peak" -> peakHeapSinceLastAsked();
                    case "served" -> served.get();
                    case "rejected" -> endpoint.counters().rejected();
                    default -> throw new IllegalArgumentException("unknown query " + line);
                };
                System.out.println(line + " = " + value);
            }
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long used = 0;
        for (MemoryPoolMXBean pool : heapPools()) {
            used += pool.getUsage().getUsed();
            pool.resetPeakUsage();
        }
        return used;
    }

    /** The sum of the heap pools' peaks (an upper bound of the heap's peak), which then start again from now. */
    private static long peakHeapSinceLastAsked() {
        long peak = 0;
        for (MemoryPoolMXBean pool : heapPools()) {
            peak += pool.getPeakUsage().getUsed();
            pool.resetPeakUsage();
        }
        return peak;
    }

    private static List<MemoryPoolMXBean> heapPools() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP).toList();
    }
}
