package perfapp;

import java.util.concurrent.locks.LockSupport;

/**
 * The object space's unit costs, measured from inside an ordinary program: the one thread it
 * starts, which dist places on the worker (the home is busy with {@code main}, and placement fills
 * the least-loaded node), reads fields of shared objects (valid copies there) and of its own objects, faults in
 * objects it has never seen, and takes an uncontended monitor of a shared object and of its own. Prints "name
 * value" lines. With --plain (no dist) only the read is measured, as the baseline.
 *
 * <p>A fault: the probe asks {@code main}, at the home, to publish a new object (through the board's monitor,
 * untimed), waits long enough for it to happen, and times its next acquire (a volatile read of the
 * board), whose refresh brings the object; it counts the acquires that did. Asked for, not
 * published on a timer: with a timer, the acquires that happen to take long are the ones most
 * likely to span a publication, and the "faults" would be the slow ones. The acquire that brings
 * nothing is timed the same way, without asking.
 *
 * <p>Read loops are timed {@link #ROUNDS} times (copies and own objects alternating) and the
 * medians kept: a single loop's time varies by half from one JIT compilation to the next. Remote
 * operations are timed after untimed ones, as the raw round trip they are compared with is: while
 * the JIT compiles the runtime's paths (on a node of one CPU, beside the threads that answer), the
 * first thousands include stalls of milliseconds, and a mean of them says more about the JIT than
 * about the object space.
 */
public final class SsiCosts {
    static final int OBJECTS = 1024;
    static final int READS = 100_000_000;
    /** Untimed acquires (each after a pause) and monitor rounds before the timed ones: see the class comment. */
    static final int WARM_UP_ACQUIRES = 10_000, WARM_UP_MONITOR_ROUNDS = 10_000;
    static final int REMOTE_OPERATIONS = 3_000;
    /**
     * Enters and exits of one monitor per timed loop, a shared object's (its node keeps the home's
     * monitor between them, returning it every few milliseconds) and the probe's own.
     */
    static final int MONITOR_ROUNDS = 1_000_000;
    static final int VOLATILE_READS = 10_000_000;
    /** Read loops are timed this often, alternating copy and own object, and the medians compared. */
    static final int ROUNDS = 5;
    /** How long the probe gives the home thread to publish before it times its acquire. */
    static final long PUBLISH_WAIT_NANOS = 200_000;

    static final class Cell {
        int value;
    }

    /**
     * What the release costs are timed on: a small object, and a 1 MB array that the probe makes
     * (and so shares) only after it timed the small object's releases without it; a volatile write
     * releases.
     */
    static final class Releases {
        final Cell small = new Cell();
        long[] large;
        volatile int released;
    }

    /**
     * Volatile hand-overs between the probe (on the worker) and {@code main} (at the home): the
     * probe writes a turn's number, main spins until it reads it and writes it back, the probe
     * spins until it reads that. Both spin with {@code Thread.yield()}: on a node of one CPU a
     * spinner that never yields takes the CPU from the threads that carry the value to it, and the
     * figure would be the scheduler's, not dist's.
     */
    static final class HandOvers {
        volatile int asked;
        volatile int answered;

        /** Runs at the home: answers every turn. */
        void answer(int turns) {
            for (int turn = 1; turn <= turns; turn++) {
                while (asked != turn) {
                    Thread.yield();
                }
                answered = turn;
            }
        }

        /** Runs on the worker: the mean of one way, in microseconds, over the timed turns after the untimed ones. */
        double ask(int untimed, int timed) {
            long start = 0;
            for (int turn = 1; turn <= untimed + timed; turn++) {
                if (turn == untimed + 1) {
                    start = System.nanoTime();
                }
                asked = turn;
                while (answered != turn) {
                    Thread.yield();
                }
            }
            return (System.nanoTime() - start) / 1e3 / timed / 2;
        }
    }

    /** Where the home publishes: a new cell, then its number, so a reader who sees the number sees the cell. */
    static final class Board {
        Cell cell = new Cell();
        volatile int published;
        int requested;
        boolean closed;

        /** Runs at the home: publishes a new cell each time the probe asks, until it closes the board. */
        synchronized void serve() throws InterruptedException {
            int served = 0;
            while (true) {
                while (requested == served && !closed) {
                    wait();
                }
                if (closed) {
                    return;
                }
                served++;
                Cell fresh = new Cell();
                fresh.value = served;
                cell = fresh;
                published = served;
            }
        }

        synchronized void request() {
            requested++;
            notify();
        }

        synchronized void close() {
            closed = true;
            notify();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Cell[] shared = cells();
        if (args.length > 0 && args[0].equals("--plain")) {
            double[] plain = new double[ROUNDS];
            for (int r = 0; r < ROUNDS; r++) {
                plain[r] = readNanos(shared);
            }
            System.out.printf("plain_read_ns %.3f%n", median(plain));
            return;
        }
        Board board = new Board();
        Releases releases = new Releases();
        HandOvers handOvers = new HandOvers();
        double[] results = new double[13];
        Thread probe = new Thread(() -> probe(shared, board, releases, handOvers, results), "probe");
        probe.start();
        board.serve(); // main publishes: it runs at the home whatever the placement
        handOvers.answer(2 * REMOTE_OPERATIONS);
        probe.join();
        System.out.printf("copy_read_ns %.3f%nworker_local_read_ns %.3f%nfault_us %.1f%nfaults %.0f%n"
                + "empty_refresh_us %.3f%nmonitor_us %.4f%nrelease_small_us %.2f%nrelease_array_us %.2f%n"
                + "release_small_beside_array_us %.2f%nlocal_monitor_us %.4f%nvolatile_read_ns %.3f%nlocal_volatile_read_ns %.3f%n"
                + "volatile_handover_us %.1f%n",
                results[0], results[1], results[2], results[3], results[4], results[5], results[6], results[7], results[8],
                results[9], results[10], results[11], results[12]);
    }

    /** Runs on the worker: fills {@code results} in the order main prints them. */
    private static void probe(Cell[] shared, Board board, Releases releases, HandOvers handOvers, double[] results) {
        Cell[] own = cells();
        double[] copyReads = new double[ROUNDS];
        double[] ownReads = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            copyReads[r] = readNanos(shared);
            ownReads[r] = readNanos(own);
        }
        results[0] = median(copyReads);
        results[1] = median(ownReads);
        long[] faults = new long[1];
        acquires(board, true, WARM_UP_ACQUIRES, faults);
        faults[0] = 0;
        results[2] = acquires(board, true, REMOTE_OPERATIONS, faults);
        results[3] = faults[0];
        results[4] = acquires(board, false, REMOTE_OPERATIONS, faults);
        board.close();
        Board ownBoard = new Board();
        double[] sharedVolatile = new double[ROUNDS];
        double[] ownVolatile = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            sharedVolatile[r] = volatileReadNanos(board);
            ownVolatile[r] = volatileReadNanos(ownBoard);
        }
        results[10] = median(sharedVolatile);
        results[11] = median(ownVolatile);
        long sum = 0;
        for (int i = 0; i < WARM_UP_MONITOR_ROUNDS; i++) {
            sum += monitorRound(shared[1]) + monitorRound(own[1]);
        }
        double[] sharedMonitor = new double[ROUNDS];
        double[] ownMonitor = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long start = System.nanoTime();
            for (int i = 0; i < MONITOR_ROUNDS; i++) {
                sum += monitorRound(shared[1]);
            }
            sharedMonitor[r] = (System.nanoTime() - start) / 1e3 / MONITOR_ROUNDS;
            start = System.nanoTime();
            for (int i = 0; i < MONITOR_ROUNDS; i++) {
                sum += monitorRound(own[1]);
            }
            ownMonitor[r] = (System.nanoTime() - start) / 1e3 / MONITOR_ROUNDS;
        }
        results[5] = median(sharedMonitor);
        results[9] = median(ownMonitor);
        double[] smallReleases = new double[ROUNDS];
        double[] arrayReleases = new double[ROUNDS];
        double[] smallBesideArray = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) { // medians kept: a send's cost is bimodal here
            smallReleases[r] = releaseMicros(releases, false);
        }
        releases.large = new long[1 << 17];
        releases.released = -1; // shares the array
        for (int r = 0; r < ROUNDS; r++) {
            arrayReleases[r] = releaseMicros(releases, true);
            smallBesideArray[r] = releaseMicros(releases, false);
        }
        results[6] = median(smallReleases);
        results[7] = median(arrayReleases);
        results[8] = median(smallBesideArray);
        results[12] = handOvers.ask(REMOTE_OPERATIONS, REMOTE_OPERATIONS);
        if (sum == 42) {
            System.out.println(); // keeps sum alive
        }
    }

    /**
     * Times {@code count} acquires, each after asking the home for a new cell or not; returns the
     * mean in microseconds and adds to {@code faults} the acquires that brought a cell this node
     * never had.
     */
    private static double acquires(Board board, boolean ask, int count, long[] faults) {
        long nanos = 0;
        Cell seen = board.cell;
        for (int i = 0; i < count; i++) {
            if (ask) {
                board.request();
            }
            LockSupport.parkNanos(PUBLISH_WAIT_NANOS);
            long start = System.nanoTime();
            // A volatile read of a copy: it refreshes from the home when the home said that a
            // release changed the masters since the last refresh (the publication did), else reads the copy.
            int published = board.published;
            nanos += System.nanoTime() - start;
            Cell cell = board.cell;
            if (cell != seen && cell.value == published) {
                faults[0]++;
                seen = cell;
            }
        }
        return nanos / 1e3 / count;
    }

    /**
     * Nanoseconds per read of a volatile field nobody writes meanwhile: a spinning thread's read,
     * of a copy (the shared board, closed) or of an object of the probe's own.
     */
    private static double volatileReadNanos(Board board) {
        long sum = 0;
        long start = System.nanoTime();
        for (int i = 0; i < VOLATILE_READS; i++) {
            sum += board.published;
        }
        double nanos = (double) (System.nanoTime() - start) / VOLATILE_READS;
        return sum == Long.MIN_VALUE ? -1 : nanos; // uses sum, so the loop stays
    }

    /**
     * Microseconds per release (a volatile write of a copy: the release, sent one way; the next
     * volatile read of the node refreshes after it) after writing one field of a small object, or one element of the
     * 1 MB array: untimed rounds first, then the mean of timed ones.
     */
    private static double releaseMicros(Releases releases, boolean arrayElement) {
        long start = 0;
        for (int i = 0; i < WARM_UP_MONITOR_ROUNDS + REMOTE_OPERATIONS; i++) {
            if (i == WARM_UP_MONITOR_ROUNDS) {
                start = System.nanoTime();
            }
            if (arrayElement) {
                releases.large[(i * 4099) & (releases.large.length - 1)] = i;
            } else {
                releases.small.value = i;
            }
            releases.released = i;
        }
        return (System.nanoTime() - start) / 1e3 / REMOTE_OPERATIONS;
    }

    private static int monitorRound(Cell cell) {
        synchronized (cell) {
            return cell.value;
        }
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static Cell[] cells() {
        Cell[] cells = new Cell[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            cells[i] = new Cell();
            cells[i].value = i;
        }
        return cells;
    }

    /** Nanoseconds per field read, over different objects so that no read can be hoisted out of the loop. */
    static double readNanos(Cell[] cells) {
        long sum = 0;
        for (int warm = 0; warm < 3; warm++) {
            for (int i = 0; i < READS / 10; i++) {
                sum += cells[i & (OBJECTS - 1)].value;
            }
        }
        long start = System.nanoTime();
        for (int i = 0; i < READS; i++) {
            sum += cells[i & (OBJECTS - 1)].value;
        }
        double nanos = (double) (System.nanoTime() - start) / READS;
        return sum == 42 ? -nanos : nanos;
    }
}
