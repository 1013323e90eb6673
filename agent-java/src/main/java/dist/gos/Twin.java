package dist.gos;

import java.util.ArrayList;
import java.util.List;

/**
 * The values a copy had when this node last agreed with the home, kept beside the copy (twin/diff,
 * as in TreadMarks). A release sends what differs from the twin; a refresh at acquire takes the
 * home's value only where the copy still equals its twin, with a compare-and-set, so a write that
 * a thread of this node makes meanwhile is never overwritten. Writers of the copy never touch the
 * twin, so they need no lock; releases and refreshes of one copy are serialized by the caller
 * holding the twin's monitor.
 */
final class Twin {
    /** One slot's new value, as a release sends it or a refresh applies it. */
    record Change(int slot, Object value) {}

    private final Slots slots;
    private final Object[] agreed;

    private Twin(Slots slots, Object[] agreed) {
        this.slots = slots;
        this.agreed = agreed;
    }

    /** The twin of a copy whose current values are the home's. */
    static Twin of(Object copy) {
        Slots slots = Slots.of(copy.getClass());
        Object[] values = new Object[slots.count(copy)];
        for (int i = 0; i < values.length; i++) {
            values[i] = slots.get(copy, i);
        }
        return new Twin(slots, values);
    }

    /**
     * What the copy's threads wrote since the last release; the twin then holds the values
     * returned, not the copy's values of a moment later, so a write racing with this release stays
     * a difference for the next one.
     */
    synchronized List<Change> release(Object copy) {
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < agreed.length; i++) {
            Object current = slots.get(copy, i);
            if (!slots.same(i, current, agreed[i])) {
                changes.add(new Change(i, current));
                agreed[i] = current;
            }
        }
        return changes;
    }

    /**
     * Applies the home's newer values. A slot this node has written since it last agreed keeps
     * the local value (it goes home at the next release); any other slot takes the home's.
     */
    synchronized void refresh(Object copy, List<Change> fromHome) {
        for (Change change : fromHome) {
            int slot = change.slot();
            slots.compareAndSet(copy, slot, agreed[slot], change.value());
            agreed[slot] = change.value();
        }
    }
}
