package dist.gos;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of a holder (object, array or class statics) that two sides last agreed on (twin/diff,
 * as in TreadMarks). On a worker it sits beside each copy: a release sends what differs from it; a
 * refresh at acquire takes the home's value only where the copy still equals its twin, with a
 * compare-and-set, so a write that a thread of the worker makes meanwhile is never overwritten. At
 * the home one twin per (worker, object) records what that worker last saw, so a refresh sends only
 * what changed since. Writers of the holder never touch the twin and need no lock; operations on
 * one twin are serialized by its monitor.
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

    /** The twin of a holder whose current values both sides have. */
    static Twin of(Object holder) {
        Slots slots = Slots.of(holder);
        Object[] values = new Object[slots.count(holder)];
        for (int i = 0; i < values.length; i++) {
            values[i] = slots.get(holder, i);
        }
        return new Twin(slots, values);
    }

    /** The agreed values, slot by slot (the array itself: callers only read it). */
    Object[] agreed() {
        return agreed;
    }

    /**
     * What changed since the two sides last agreed; the twin then holds the values returned, not
     * the holder's values of a moment later, so a write racing with this call stays a difference
     * for the next one.
     */
    synchronized List<Change> changes(Object holder) {
        List<Change> changes = new ArrayList<>();
        for (int i = 0; i < agreed.length; i++) {
            Object current = slots.get(holder, i);
            if (!slots.same(i, current, agreed[i])) {
                changes.add(new Change(i, current));
                agreed[i] = current;
            }
        }
        return changes;
    }

    /**
     * A copy takes the home's newer values: a slot written here since it last agreed keeps the
     * local value (it goes home at the next release); any other slot takes the home's.
     */
    synchronized void refresh(Object copy, List<Change> fromHome) {
        for (Change change : fromHome) {
            int slot = change.slot();
            slots.compareAndSet(copy, slot, agreed[slot], change.value());
            agreed[slot] = change.value();
        }
    }

    /**
     * The home takes a worker's writes into the master, volatile slots last, so a thread that
     * sees a volatile write also sees the plain writes released with it.
     */
    synchronized void apply(Object master, List<Change> fromWorker) {
        for (boolean volatilePass : new boolean[] {false, true}) {
            for (Change change : fromWorker) {
                if (slots.isVolatile(change.slot()) == volatilePass) {
                    slots.set(master, change.slot(), change.value());
                    agreed[change.slot()] = change.value();
                }
            }
        }
    }
}
