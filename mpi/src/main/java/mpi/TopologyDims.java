package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * The factorization behind {@link Cartcomm#Dims_create}: {@code n} as a product of {@code k}
 * extents that are as close to each other as possible.
 */
final class TopologyDims {
    private final long[] divisors;
    private final int[] current;
    private int[] best;
    private long bestSpread = Long.MAX_VALUE;

    private TopologyDims(int n, int k) {
        this.divisors = divisorsOf(n);
        this.current = new int[k];
    }

    /**
     * {@code k} factors of {@code n} in non-increasing order whose largest and smallest differ
     * least; among equally balanced choices, the one with the smallest largest factor.
     */
    static int[] balanced(int n, int k) {
        if (k == 0) {
            return new int[0];
        }
        TopologyDims search = new TopologyDims(n, k);
        search.extend(n, k, n, 0);
        return search.best;
    }

    /**
     * Chooses the factor at {@code depth}, at most {@code maxFactor} (factors never increase).
     * Candidates go from the most balanced up, and the search stops as soon as the smallest spread
     * still reachable is no better than the best found, so it stays small even for numbers with
     * many divisors.
     */
    private void extend(long remaining, int left, long maxFactor, int depth) {
        if (left == 1) {
            if (remaining <= maxFactor) {
                current[depth] = (int) remaining;
                long spread = current[0] - remaining;
                if (spread < bestSpread) {
                    bestSpread = spread;
                    best = current.clone();
                }
            }
            return;
        }
        long smallest = ceilRoot(remaining, left); // the largest of the rest is at least this
        for (long d : divisors) {
            if (d < smallest || remaining % d != 0) {
                continue;
            }
            if (d > maxFactor) {
                break;
            }
            long first = depth == 0 ? d : current[0];
            // every later factor is at most the (left-1)-th root of what they must multiply to
            if (first - floorRoot(remaining / d, left - 1) >= bestSpread) {
                break;
            }
            current[depth] = (int) d;
            extend(remaining / d, left - 1, d, depth + 1);
        }
    }

    private static long[] divisorsOf(int n) {
        List<Long> small = new ArrayList<>();
        List<Long> large = new ArrayList<>();
        for (long d = 1; d * d <= n; d++) {
            if (n % d == 0) {
                small.add(d);
                if (d * d != n) {
                    large.add(0, n / d);
                }
            }
        }
        small.addAll(large);
        return small.stream().mapToLong(Long::longValue).toArray();
    }

    /** The smallest {@code r} with {@code r^k >= m}. */
    static long ceilRoot(long m, int k) {
        long r = floorRoot(m, k);
        return power(r, k) >= m ? r : r + 1;
    }

    /** The largest {@code r} with {@code r^k <= m}. */
    static long floorRoot(long m, int k) {
        if (k == 1 || m <= 1) {
            return m;
        }
        long r = (long) Math.pow(m, 1.0 / k);
        while (r > 0 && power(r, k) > m) {
            r--;
        }
        while (power(r + 1, k) <= m) {
            r++;
        }
        return r;
    }

    /** {@code r^k}, saturating at Long.MAX_VALUE. */
    private static long power(long r, int k) {
        long p = 1;
        for (int i = 0; i < k; i++) {
            if (r != 0 && p > Long.MAX_VALUE / r) {
                return Long.MAX_VALUE;
            }
            p *= r;
        }
        return p;
    }
}
