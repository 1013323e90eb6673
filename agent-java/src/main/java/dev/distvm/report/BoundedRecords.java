package dev.distvm.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The first records of something a run may do without bound (a program may start a million
 * threads), and a count of the rest: the report lists the first and says how many more there were,
 * in memory that does not grow with the run.
 */
public final class BoundedRecords<T> {
    static final int LISTED = 1000;

    private final List<T> listed = new ArrayList<>();
    private long notListed;

    public synchronized void add(T record) {
        if (listed.size() < LISTED) {
            listed.add(record);
        } else {
            notListed++;
        }
    }

    public synchronized List<T> listed() {
        return List.copyOf(listed);
    }

    public synchronized long notListed() {
        return notListed;
    }
}
