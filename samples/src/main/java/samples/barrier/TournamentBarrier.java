package samples.barrier;

import samples.KernelTime;

/**
 * Many rounds of a small reduction separated by a spin barrier (the Java Grande Forum's barrier
 * benchmark and the inner loop of its multithreaded kernels): in round r each party sums its slice
 * of a vector scaled by r+1 (modulo a prime) into its own slot, meets the others at a
 * {@link Tournament} barrier, adds up every party's slot into that round's total, and meets them
 * again before the slots are overwritten. Each party folds the totals into a checksum of its own;
 * main checks every party's against the same computation done sequentially.
 *
 * <p>What it exercises: threads that wait for each other only by spinning on plain array elements
 * behind a volatile field (no monitor, no wait/notify), thousands of times, with each round's
 * results crossing the barrier.
 *
 * <p>usage: TournamentBarrier [threads] [rounds] [size] (defaults 4, 5000, 2000)
 */
public final class TournamentBarrier {
    private TournamentBarrier() {}

    static int[] vector;
    static long[] partial;
    static Tournament barrier;

    static long term(int element, int round) {
        return (long) element * (round + 1) % 1009;
    }

    /** A party: its number doubles as its barrier id and its slot in {@code partial}. */
    static final class Party extends Thread {
        private final int id, from, to, rounds;
        long checksum;

        Party(int id, int from, int to, int rounds) {
            super("party-" + id);
            this.id = id;
            this.from = from;
            this.to = to;
            this.rounds = rounds;
        }

        @Override
        public void run() {
            for (int round = 0; round < rounds; round++) {
                long sum = 0;
                for (int k = from; k < to; k++) {
                    sum += term(vector[k], round);
                }
                partial[id] = sum;
                barrier.await(id);
                long total = 0;
                for (long p : partial) {
                    total += p;
                }
                checksum = checksum * 31 + total;
                barrier.await(id);
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int size = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        vector = new int[size];
        for (int k = 0; k < size; k++) {
            vector[k] = k * 7919 % 1000 + 1;
        }
        partial = new long[threads];
        barrier = new Tournament(threads);
        long kernel = KernelTime.start();
        Party[] parties = new Party[threads];
        for (int t = 0; t < threads; t++) {
            parties[t] = new Party(t, size * t / threads, size * (t + 1) / threads, rounds);
            parties[t].start();
        }
        for (Party p : parties) {
            p.join();
        }
        KernelTime.report(kernel);
        long expected = 0;
        for (int round = 0; round < rounds; round++) {
            long total = 0;
            for (int element : vector) {
                total += term(element, round);
            }
            expected = expected * 31 + total;
        }
        for (Party p : parties) {
            if (p.checksum != expected) {
                throw new IllegalStateException(p.getName() + " computed checksum " + Long.toHexString(p.checksum)
                        + ", expected " + Long.toHexString(expected) + ": a round's results did not cross the barrier");
            }
        }
        System.out.printf("%d rounds over %d elements: checksum %016x, the same for every party%n",
                rounds, size, expected);
    }
}
