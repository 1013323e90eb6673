package dev.distvm.objectspace;

import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Which shared things a release or refresh must compare with their twins, so that it does not
 * compare all of them: objects and class statics whose writes were reported
 * ({@link Hooks#written}), every array (whose written chunks {@link ArrayWrites} knows), and
 * anything shared in the last moments. The last is needed because a write reports itself only if
 * it sees its holder as shared, and a store that another thread made just before the holder
 * became shared may still sit in that CPU's store buffer when it is first compared: such a thing
 * is compared whole at every scan until a scan that starts a millisecond after it became shared.
 *
 * <p>Things are tracked by their bookkeeping (a worker's copy record, the home's id), which does
 * not keep a holder alive; a reported write may give a pin, the holder itself, which stays until
 * the scan after the one that took the write: a copy written and then dropped by the program is
 * still there for the release that carries the write.
 */
final class WriteTracking<T> {
    private static final long SETTLED_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Map<T, Object> written = new ConcurrentHashMap<>();
    /** The scan periods: a scan starts the next once it has taken the reports (see {@link #writtenAfterFence}). */
    private volatile int scans;
    /** Per slot of a thing's hash, the thing last reported there and in which period: a look without the map. */
    private final Reported[] lastReports = new Reported[64];
    /** Every array shared, with its sort key: its length, then the order it was shared in. */
    private final Map<T, Long> arrays = new HashMap<>();
    private int arraysShared;
    /** {@link #arrays} in the order a scan reads them ({@link ScanOrder}); null when one was added or forgotten since. */
    private List<T> arraysInScanOrder;
    private final Map<T, Long> recent = new LinkedHashMap<>();
    /** The pins of the writes the last scan took, kept until its release or refresh is written. */
    private List<Object> scanned = List.of();

    /**
     * What a scan found due, in the order it is to read them ({@link ScanOrder}: objects and
     * statics, then arrays by length); {@code whole} are those shared in the last moments, to be
     * compared whole.
     */
    record Scan<T>(List<T> due, Set<T> whole) {}

    /** What {@link #shared} takes for {@code holder}: its length if it is an array, else -1. */
    static int arrayLength(Object holder) {
        return holder.getClass().isArray() ? Array.getLength(holder) : -1;
    }

    /** A thing became shared (or was first sent to this peer) now: an array of {@code arrayLength} elements, or not an array (-1). */
    synchronized void shared(T thing, int arrayLength) {
        if (arrayLength >= 0 && !arrays.containsKey(thing)) {
            arrays.put(thing, (long) arrayLength << 32 | Integer.toUnsignedLong(arraysShared++));
            arraysInScanOrder = null;
        }
        recent.put(thing, System.nanoTime());
    }

    void written(T thing) {
        written(thing, thing);
    }

    /**
     * A write to {@code thing}, whose {@code pin} stays alive until a scan compared it (see above).
     * A thing already reported and not yet taken is not reported again: a hot synchronized method
     * at the home wrote the same shared counter from two threads, and each write's put into one
     * map entry cost more than the method. The fence keeps the caller's store before the look, and
     * the scan's fence keeps its removal before it compares: so either this look sees the entry
     * still there and the scan that takes it sees the store, or it sees the entry gone and puts it
     * again for the next scan (the two fences forbid each side missing the other's write).
     */
    void written(T thing, Object pin) {
        VarHandle.fullFence();
        writtenAfterFence(thing, pin);
    }

    /**
     * As {@link #written(Object, Object)}, for a caller that fenced after its store already: the
     * home fences once for all its views of a write. The look goes first to the thing's slot in
     * {@link #lastReports}, which says that this thing was found or put in the map during the scan
     * period it names; a scan takes the reports and then starts a new period, before its fence. A
     * writer that reads the old period there read it before the new one began, so the scan's
     * compare, after its fence, sees the writer's store (store, fence, read the period; write the
     * period, fence, compare: one of the two sees the other's write). One that reads the new period
     * misses the slot and looks in the map as above.
     */
    void writtenAfterFence(T thing, Object pin) {
        if (thing instanceof Marked marked) {
            if (!marked.writeReported()) {
                marked.writeReported(true);
                written.put(thing, pin);
                UnreleasedWrites.NODE.noted();
            }
            return;
        }
        int period = scans;
        int slot = thing.hashCode() & (lastReports.length - 1);
        Reported last = lastReports[slot];
        if (last != null && last.thing() == thing && last.period() == period) {
            return;
        }
        if (written.get(thing) == null) {
            written.put(thing, pin);
            UnreleasedWrites.NODE.noted();
        }
        lastReports[slot] = new Reported(thing, period);
    }

    /** A thing found or put in {@link #written} during the scan period {@code period}. */
    private record Reported(Object thing, int period) {}

    /**
     * A thing that says itself whether a write to it is reported and not yet taken by a scan: a
     * worker's hot synchronized method then reads a field where it looked its copy up in the map
     * (two look-ups a call for a counter's two fields). The scan clears the mark after it took the
     * report and before its fence, so the argument above holds with the mark in the map's place.
     */
    interface Marked {
        /** Read and written with volatile semantics. */
        boolean writeReported();

        void writeReported(boolean reported);
    }

    /** The thing is no longer shared with this peer. */
    synchronized void forget(T thing) {
        written.remove(thing);
        if (arrays.remove(thing) != null) {
            arraysInScanOrder = null;
        }
        recent.remove(thing);
    }

    /** What to compare now; reported writes are taken (a write reported later is in the next scan). */
    synchronized Scan<T> scan() {
        return scan(true);
    }

    /**
     * What to compare now, arrays only if {@code withArrays} (and those shared in the last moments).
     * Every shared array is due at every scan that compares arrays, so their order is kept between
     * scans (an array's length never changes): a scan lists them without sorting or copying a set.
     */
    synchronized Scan<T> scan(boolean withArrays) {
        long start = System.nanoTime();
        Set<T> reported = new LinkedHashSet<>();
        List<Object> pins = new ArrayList<>();
        for (T thing : written.keySet()) {
            pins.add(written.remove(thing));
            reported.add(thing);
            if (thing instanceof Marked marked) {
                marked.writeReported(false);
            }
        }
        scans++; // a new period: see writtenAfterFence (one writer: this method is synchronized)
        VarHandle.fullFence(); // see written: the removals before the caller compares
        scanned = pins;
        Set<T> whole = recent.isEmpty() ? Set.of() : new HashSet<>();
        recent.entrySet().removeIf(entry -> {
            reported.add(entry.getKey());
            whole.add(entry.getKey());
            return start - entry.getValue() > SETTLED_NANOS;
        });
        List<T> due = new ArrayList<>();
        List<T> reportedArrays = new ArrayList<>();
        for (T thing : reported) {
            (arrays.containsKey(thing) ? reportedArrays : due).add(thing);
        }
        if (withArrays) {
            due.addAll(arraysInScanOrder());
        } else {
            reportedArrays.sort(Comparator.comparingLong(arrays::get));
            due.addAll(reportedArrays);
        }
        return new Scan<>(due, whole);
    }

    private List<T> arraysInScanOrder() {
        if (arraysInScanOrder == null) {
            List<Map.Entry<T, Long>> entries = new ArrayList<>(arrays.entrySet());
            entries.sort(Map.Entry.comparingByValue());
            arraysInScanOrder = entries.stream().map(Map.Entry::getKey).toList();
        }
        return arraysInScanOrder;
    }
}
