package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A placed thread's thread group, by its names from the root down ({@code system/main/solvers}):
 * a thread prints its group ({@code Thread.toString()}) and a program may ask its group's name, so
 * a worker puts a placed thread into a group of the same names, made there the first time one is
 * named. The worker's own {@code main} group stands for the home's; the groups are stand-ins, which
 * hold this node's threads only (a group's {@code activeCount} counts them).
 */
final class ThreadGroups {
    private final ThreadGroup programGroup;
    private final Map<List<String>, ThreadGroup> byPath = new ConcurrentHashMap<>();

    /** {@code programGroup}: this node's group that stands for the program's {@code main} group. */
    ThreadGroups(ThreadGroup programGroup) {
        this.programGroup = programGroup;
        for (ThreadGroup group = programGroup; group != null; group = group.getParent()) {
            byPath.put(path(group), group);
        }
    }

    /** [count] then the names from the root down; none when the thread has no group any more (it ended). */
    static void writePath(Thread thread, WireBuffer out) {
        ThreadGroup group = thread.getThreadGroup();
        List<String> names = group == null ? List.of() : path(group);
        out.appendInt(names.size());
        names.forEach(out::appendString);
    }

    /** The group {@link #writePath} named, made here if it is new. */
    ThreadGroup read(ByteBuffer in) {
        int count = in.getInt();
        WireReader.bounded(in, count);
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(WireReader.string(in));
        }
        return names.isEmpty() ? programGroup : group(names);
    }

    private ThreadGroup group(List<String> names) {
        ThreadGroup known = byPath.get(names);
        if (known != null) {
            return known;
        }
        if (names.size() == 1) {
            return programGroup; // a root of another name than this node's: the program's group stands for it
        }
        ThreadGroup parent = group(names.subList(0, names.size() - 1));
        return byPath.computeIfAbsent(List.copyOf(names), path -> new ThreadGroup(parent, path.get(path.size() - 1)));
    }

    private static List<String> path(ThreadGroup group) {
        List<String> names = new ArrayList<>();
        for (ThreadGroup g = group; g != null; g = g.getParent()) {
            names.add(0, g.getName());
        }
        return names;
    }
}
