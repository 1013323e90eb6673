package samples.barrier;

/**
 * The Java Grande Forum's tournament barrier (section 2, multithreaded LUFact and the barrier
 * microbenchmark): parties are numbered 0..n-1 and arranged in a 4-ary tree; each waits for its up
 * to three children of every round to arrive, then marks itself done, and everyone spins until the
 * root (party 0) is done. The flags are plain elements of an array reached through a volatile field,
 * and their sense flips at every barrier, so the array is never reset.
 *
 * <p>A spinning party re-reads the field (a volatile read) before every look at a flag, so the
 * flag's read cannot be hoisted out of the loop; after {@link #BUSY_SPINS} looks it yields, as JGF
 * does, because there may be more parties than cores. Unlike JGF, a party stores the field back
 * before it sets its flag: that volatile store releases everything it wrote in the round (its share
 * of the results) before the flag can show, so whoever sees the flag sees the results.
 */
public final class Tournament {
    private static final int BUSY_SPINS = 64;

    private final int parties;
    private volatile boolean[] isDone;

    public Tournament(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("a barrier needs at least one party, got " + parties);
        }
        this.parties = parties;
        isDone = new boolean[parties];
    }

    /** Returns once every party has called await for this barrier; {@code id} is the caller's number. */
    public void await(int id) {
        boolean done = !isDone[id];
        int roundMask = 3;
        while ((id & roundMask) == 0 && roundMask < (parties << 2)) {
            int spacing = (roundMask + 1) >> 2;
            for (int child = 1; child <= 3 && id + child * spacing < parties; child++) {
                spinUntil(id + child * spacing, done);
            }
            roundMask = (roundMask << 2) + 3;
        }
        boolean[] flags = isDone;
        isDone = flags;
        flags[id] = done;
        spinUntil(0, done);
    }

    private void spinUntil(int party, boolean done) {
        for (int spins = 1; isDone[party] != done; spins++) {
            if (spins % BUSY_SPINS == 0) {
                Thread.yield();
            }
        }
    }
}
