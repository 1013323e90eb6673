package dev.distvm.report;

import dev.distvm.node.proto.MonitorHandOvers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per class of the objects locked, how shared monitors passed between the threads that took them
 * on this node: within the node (the node held the monitor already) or across nodes (a message
 * brought it); and the calls of waiting synchronized methods that ran at the home instead. Counted on a hand-over only, never on a thread's uncontended re-entry, which costs
 * a few nanoseconds that a count would double.
 */
public final class MonitorHandOverCounts {
    /** The most classes a node report lists (those with the most hand-overs). */
    public static final int LISTED = 20;

    private record Counts(String className, LongAdder withinNode, LongAdder acrossNodes, LongAdder callsAtHome) {
        long total() {
            return withinNode.sum() + acrossNodes.sum() + callsAtHome.sum();
        }
    }

    private static final Queue<Counts> ALL = new ConcurrentLinkedQueue<>();
    private static final ClassValue<Counts> OF_INSTANCES = counting("");
    /** A class's own monitor ({@code static synchronized}), listed as {@code Name.class}. */
    private static final ClassValue<Counts> OF_CLASS_ITSELF = counting(".class");

    private static ClassValue<Counts> counting(String suffix) {
        return new ClassValue<>() {
            @Override
            protected Counts computeValue(Class<?> type) {
                Counts counts = new Counts(type.getName() + suffix, new LongAdder(), new LongAdder(), new LongAdder());
                ALL.add(counts);
                return counts;
            }
        };
    }

    private MonitorHandOverCounts() {}

    /** A thread of this node took {@code lock}'s monitor after another thread of this node, without a message. */
    public static void withinNode(Object lock) {
        of(lock).withinNode.increment();
    }

    /** A thread of this node took {@code lock}'s monitor, which a message brought from the home. */
    public static void acrossNodes(Object lock) {
        of(lock).acrossNodes.increment();
        if (FlightEvents.recording()) {
            MonitorHandOverEvent.acrossNodes(lock);
        }
    }

    /** A thread of this node ran a waiting synchronized method of {@code lock} at the home instead of taking its monitor here. */
    public static void calledAtHome(Object lock) {
        of(lock).callsAtHome.increment();
    }

    private static Counts of(Object lock) {
        return lock instanceof Class<?> type ? OF_CLASS_ITSELF.get(type) : OF_INSTANCES.get(lock.getClass());
    }

    /** How reports name {@code lock}'s monitor: its class's name, or {@code Name.class} for a class's own. */
    static String monitorName(Object lock) {
        return of(lock).className();
    }

    /** The classes with hand-overs, most first, at most {@link #LISTED}. */
    public static List<MonitorHandOvers> listed() {
        List<MonitorHandOvers> listed = new ArrayList<>();
        for (Counts counts : counted()) {
            if (listed.size() == LISTED) {
                break;
            }
            listed.add(MonitorHandOvers.newBuilder().setClassName(counts.className())
                    .setWithinNode(counts.withinNode().sum()).setAcrossNodes(counts.acrossNodes().sum())
                    .setCallsAtHome(counts.callsAtHome().sum()).build());
        }
        return listed;
    }

    /** How many classes with hand-overs {@link #listed} leaves out. */
    public static int notListed() {
        return Math.max(0, counted().size() - LISTED);
    }

    private static List<Counts> counted() {
        List<Counts> counted = new ArrayList<>();
        for (Counts counts : ALL) {
            if (counts.total() > 0) {
                counted.add(counts);
            }
        }
        counted.sort(Comparator.comparingLong(Counts::total).reversed());
        return counted;
    }
}
