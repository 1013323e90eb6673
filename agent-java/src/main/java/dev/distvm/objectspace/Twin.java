package dev.distvm.objectspace;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The values of a holder (object, array or class statics) that two sides last agreed on (twin/diff,
 * as in TreadMarks). On a worker it sits beside each copy: a release sends what differs from it; a
 * refresh at acquire takes the home's values only where the copy still equals its twin, so a write
 * that a thread of the worker makes meanwhile is not overwritten. At the home one twin per (worker,
 * holder) records what that worker last saw, so a refresh sends only what changed since. Writers of
 * the holder never touch the twin and need no lock; operations on one twin are serialized by its
 * monitor. Arrays of primitives are compared and carried in bulk ranges; everything else slot by
 * slot.
 */
abstract class Twin {
    /** A new value for {@code slot}; for a primitive array, a {@link MaskedRun} from element {@code slot} on. */
    record Change(int slot, Object value) {}

    /** The twin of a holder whose current values both sides have. */
    static Twin of(Object holder) {
        return PrimitiveArrays.isPrimitiveArray(holder) ? new ArrayTwin(holder) : new SlotTwin(holder);
    }

    /**
     * The twin of a primitive array whose receiver has a fresh array of the same length: zeros on
     * both sides, until the receiver fetches the chunks it uses (an array sent on demand).
     */
    static Twin ofZeros(Object array) {
        int length = java.lang.reflect.Array.getLength(array);
        return new ArrayTwin(java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), length), length);
    }

    /** Gives a fresh holder the state another node sent (as {@link #state} wrote it) and returns its twin. */
    static Twin install(Object holder, Object[] state) {
        if (PrimitiveArrays.isPrimitiveArray(holder)) {
            Object arrived = state[0];
            int length = java.lang.reflect.Array.getLength(holder);
            if (arrived == null || arrived.getClass() != holder.getClass() || java.lang.reflect.Array.getLength(arrived) != length) {
                throw new IllegalArgumentException("object-space message: the state of a " + holder.getClass().getSimpleName()
                        + " of " + length + " elements is not such an array");
            }
            System.arraycopy(arrived, 0, holder, 0, length);
            VarHandle.releaseFence();
            return new ArrayTwin(arrived, length); // the message's array, which nothing else holds, is the twin
        } else {
            Slots slots = Slots.of(holder);
            for (int i = 0; i < state.length; i++) {
                slots.set(holder, i, state[i]);
            }
        }
        VarHandle.releaseFence();
        return of(holder);
    }

    /** The holder's whole state as a message carries it. */
    abstract Object[] state();

    /**
     * A new instance holding the values both sides last agreed on: a copy the worker's garbage
     * collector freed and a home message names again (made without a constructor, as a copy is).
     */
    abstract Object recreate();

    /** Whether this is a primitive array's twin: its state is one bulk array, its changes {@link MaskedRun}s. */
    abstract boolean inChunks();

    /** Whether {@code slot} holds a reference the program made (a boxed value there is the program's object, not dist's box of a primitive). */
    boolean holdsReference(int slot) {
        return false;
    }

    /**
     * What changed since the two sides last agreed; the twin then holds the values returned, not
     * the holder's values of a moment later, so a write racing with this call stays a difference
     * for the next one.
     */
    final List<Change> changes(Object holder) {
        return changes(holder, null);
    }

    /**
     * Like {@link #changes(Object)}, looking only at the elements in {@code ranges} ([from, to)
     * pairs; null for all): an array's chunks written since the last look ({@link ArrayWrites}).
     */
    abstract List<Change> changes(Object holder, int[] ranges);

    /** Whether the holder's slots [from, to) differ from the values agreed on (the twin unchanged). */
    abstract boolean differs(Object holder, int from, int to);

    /** How many slots from {@code change.slot()} on a change covers. */
    static int span(Change change) {
        return change.value() instanceof MaskedRun run ? run.length : 1;
    }

    /**
     * A copy takes the values of a home message, except where it was written here since it last
     * agreed, and except slots that this worker released after the home wrote the message: the
     * home had applied {@code acknowledged} of this worker's releases then, and a release travels
     * without waiting for the home, so a message written before the home applied it may arrive
     * after it (its value there is older than the released one, which the home has by now).
     */
    abstract void refresh(Object copy, List<Change> fromHome, long acknowledged);

    /** This worker released {@code changes} as its release number {@code release}. */
    abstract void released(List<Change> changes, long release);

    /**
     * The home takes a worker's writes into the master, volatile fields last, so a thread that sees
     * a volatile write also sees the plain writes released with it.
     */
    abstract void apply(Object master, List<Change> fromWorker);

    /**
     * A thread of this worker is about to write volatile field {@code slot} of the copy: from now
     * until a release carries the write, no home message overwrites the slot. A twin tells writes
     * by comparing values, and a volatile write is not ordered with other nodes' writes by
     * happens-before: a write of the value the copy already held, while the home has another node's
     * newer value, would otherwise be no change at all, and lost (Peterson's lock let two threads
     * in: perf/RESULTS.md). Only objects and statics have volatile fields.
     */
    void volatileWriteStarting(int slot) {
        throw new IllegalStateException("an array has no volatile slots");
    }

    /** The volatile write {@link #volatileWriteStarting} announced is done: the next release carries the slot, changed or not. */
    void volatileWriteEnded(int slot) {
        throw new IllegalStateException("an array has no volatile slots");
    }

    private static final class SlotTwin extends Twin {
        private final Class<?> type;
        private final Slots slots;
        private final Object[] agreed;
        /** Per slot, the number of this worker's last release that carried it (copies only; null until one did). */
        private Stamps stamps;
        /** Per slot, this worker's volatile writes begun and not ended (copies only; null until one began). */
        private int[] volatileWriting;
        /** Per slot, whether a volatile write ended that no release has carried yet (null until one ended). */
        private boolean[] volatileUnreleased;

        SlotTwin(Object holder) {
            this.type = holder.getClass();
            this.slots = Slots.of(holder);
            this.agreed = new Object[slots.count(holder)];
            for (int i = 0; i < agreed.length; i++) {
                agreed[i] = slots.get(holder, i);
            }
        }

        @Override
        Object[] state() {
            return agreed;
        }

        @Override
        synchronized Object recreate() {
            Object holder = Instances.create(type.isArray() ? Holders.Kind.ARRAY : Holders.Kind.OBJECT, type, agreed.length);
            for (int i = 0; i < agreed.length; i++) {
                slots.set(holder, i, agreed[i]);
            }
            return holder;
        }

        @Override
        boolean inChunks() {
            return false;
        }

        @Override
        boolean holdsReference(int slot) {
            return !slots.isPrimitive(slot);
        }

        @Override
        synchronized List<Change> changes(Object holder, int[] ranges) {
            List<Change> changes = new ArrayList<>();
            int[] within = ranges != null ? ranges : new int[] {0, agreed.length};
            for (int r = 0; r < within.length; r += 2) {
                for (int i = within[r]; i < within[r + 1]; i++) {
                    Object current = slots.get(holder, i);
                    boolean carry = volatileWriteToCarry(i); // taken whether or not the value differs
                    if (carry || !slots.same(i, current, agreed[i])) {
                        changes.add(new Change(i, current));
                        agreed[i] = current;
                    }
                }
            }
            return changes;
        }

        @Override
        synchronized boolean differs(Object holder, int from, int to) {
            for (int i = from; i < to; i++) {
                if (!slots.same(i, slots.get(holder, i), agreed[i])) {
                    return true;
                }
            }
            return false;
        }

        @Override
        synchronized void refresh(Object copy, List<Change> fromHome, long acknowledged) {
            for (Change change : fromHome) {
                int slot = change.slot();
                if (stamps != null && stamps.of(slot) > acknowledged || volatileWriteUnreleased(slot)) {
                    continue;
                }
                slots.compareAndSet(copy, slot, agreed[slot], change.value());
                agreed[slot] = change.value();
            }
        }

        @Override
        synchronized void volatileWriteStarting(int slot) {
            if (volatileWriting == null) {
                volatileWriting = new int[agreed.length];
            }
            volatileWriting[slot]++;
        }

        @Override
        synchronized void volatileWriteEnded(int slot) {
            if (volatileUnreleased == null) {
                volatileUnreleased = new boolean[agreed.length];
            }
            volatileUnreleased[slot] = true;
            if (volatileWriting != null && volatileWriting[slot] > 0) {
                volatileWriting[slot]--;
            }
        }

        /** Whether a release must carry {@code slot} even if it equals the twin; the caller diffs it now. */
        private boolean volatileWriteToCarry(int slot) {
            if (volatileUnreleased == null || !volatileUnreleased[slot]) {
                return false;
            }
            volatileUnreleased[slot] = false;
            return true;
        }

        private boolean volatileWriteUnreleased(int slot) {
            return volatileWriting != null && volatileWriting[slot] > 0
                    || volatileUnreleased != null && volatileUnreleased[slot];
        }

        @Override
        synchronized void released(List<Change> changes, long release) {
            if (stamps == null) {
                stamps = new Stamps(agreed.length);
            }
            for (Change change : changes) {
                stamps.set(change.slot(), release);
            }
        }

        @Override
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

    /**
     * A primitive array: a clone as the twin, compared with vectorized range compares; differences
     * travel as {@link MaskedRun}s, which carry and apply only the elements that changed (an
     * unchanged element applied would overwrite a write another node made to it meanwhile).
     */
    private static final class ArrayTwin extends Twin {
        private final Object agreed;
        private final int length;
        /** Per element, the number of this worker's last release that carried it (copies only; null until one did). */
        private Stamps stamps;

        ArrayTwin(Object holder) {
            this(PrimitiveArrays.copyOfRange(holder, 0, java.lang.reflect.Array.getLength(holder)),
                    java.lang.reflect.Array.getLength(holder));
        }

        /** A twin of {@code agreed} itself, which the caller hands over. */
        ArrayTwin(Object agreed, int length) {
            this.agreed = agreed;
            this.length = length;
        }

        @Override
        Object[] state() {
            return new Object[] {agreed};
        }

        @Override
        synchronized Object recreate() {
            return PrimitiveArrays.copyOfRange(agreed, 0, length);
        }

        @Override
        boolean inChunks() {
            return true;
        }

        @Override
        synchronized List<Change> changes(Object holder, int[] ranges) {
            List<Change> changes = new ArrayList<>();
            int[] within = ranges != null ? ranges : new int[] {0, length};
            for (int r = 0; r < within.length; r += 2) {
                int end = within[r + 1];
                int from = PrimitiveArrays.mismatch(holder, agreed, within[r], end);
                while (from >= 0) {
                    int window = Math.min(MaskedRun.WINDOW, end - from);
                    MaskedRun run = MaskedRun.diff(holder, agreed, from, window);
                    if (run != null) {
                        run.applyTo(agreed, from);
                        changes.add(new Change(from, run));
                    }
                    int next = from + window;
                    from = next < end ? PrimitiveArrays.mismatch(holder, agreed, next, end) : -1;
                }
            }
            return changes;
        }

        @Override
        synchronized boolean differs(Object holder, int from, int to) {
            return PrimitiveArrays.mismatch(holder, agreed, from, to) >= 0;
        }

        @Override
        synchronized void refresh(Object copy, List<Change> fromHome, long acknowledged) {
            for (Change change : fromHome) {
                MaskedRun run = (MaskedRun) change.value();
                if (stamps != null) {
                    run = run.notStampedAfter(stamps, change.slot(), acknowledged);
                }
                if (run != null) {
                    run.refresh(copy, agreed, change.slot());
                    run.applyTo(agreed, change.slot());
                }
            }
            VarHandle.releaseFence();
        }

        @Override
        synchronized void released(List<Change> changes, long release) {
            if (stamps == null) {
                stamps = new Stamps(length);
            }
            for (Change change : changes) {
                ((MaskedRun) change.value()).stamp(stamps, change.slot(), release);
            }
        }

        @Override
        synchronized void apply(Object master, List<Change> fromWorker) {
            for (Change change : fromWorker) {
                MaskedRun run = (MaskedRun) change.value();
                run.applyTo(master, change.slot());
                run.applyTo(agreed, change.slot());
            }
            VarHandle.releaseFence();
        }
    }
}
