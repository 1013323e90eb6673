package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cartcomm.Dims_create, a local computation: no ranks needed. */
class CartcommDimsCreateTest {
    /** nnodes; dims before; dims after (space-separated). The first four are the MPI standard's examples. */
    @ParameterizedTest(name = "Dims_create({0}, [{1}]) = [{2}]")
    @CsvSource({
        "6, 0 0, 3 2",
        "7, 0 0, 7 1",
        "6, 0 3 0, 2 3 1",
        "12, 0 0 0, 3 2 2",
        "16, 0 0 0, 4 2 2",
        "36, 0 0 0, 4 3 3",
        "30, 0 0 0, 5 3 2",
        "24, 0 0, 6 4",
        "1024, 0 0 0, 16 8 8",
        "8, 2 0, 2 4",
        "8, 2 2 2, 2 2 2",
        "1, 0 0 0, 1 1 1",
        "2, 0 0, 2 1",
        "64, 0 0 0 0, 4 4 2 2",
        "9, 0 1 0, 3 1 3",
    })
    void fillsTheZeroEntries(int nnodes, String before, String after) throws MPIException {
        int[] dims = ints(before);
        Cartcomm.Dims_create(nnodes, dims);
        assertArrayEquals(ints(after), dims);
    }

    @Test
    void noDimensionsIsOneNode() throws MPIException {
        Cartcomm.Dims_create(1, new int[0]);
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class, () -> Cartcomm.Dims_create(2, new int[0])).getErrorClass());
    }

    @ParameterizedTest(name = "Dims_create({0}, [{1}]) fails")
    @CsvSource({
        "7, 0 3 0",  // the standard's erroneous example: 3 does not divide 7
        "9, 2 0",
        "9, 2 2",    // no free entry, product 4
        "8, 2 2 3",  // no free entry, product 12
        "8, -2 0",
        "6, 4 0 0",
    })
    void impossibleRequestsAreDimsErrors(int nnodes, String before) {
        MPIException e = assertThrows(MPIException.class, () -> Cartcomm.Dims_create(nnodes, ints(before)));
        assertEquals(MPI.ERR_DIMS, e.getErrorClass(), e.getMessage());
    }

    @Test
    void argumentsOutsideTheDomainAreArgErrors() {
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> Cartcomm.Dims_create(0, new int[2])).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> Cartcomm.Dims_create(4, null)).getErrorClass());
    }

    /** Against exhaustive search: the product is right, the order non-increasing, the spread minimal. */
    @Test
    void asBalancedAsExhaustiveSearch() {
        for (int n = 1; n <= 300; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] dims = TopologyDims.balanced(n, k);
                long product = 1;
                for (int i = 0; i < k; i++) {
                    product *= dims[i];
                    assertTrue(i == 0 || dims[i - 1] >= dims[i], () -> "not non-increasing: " + Arrays.toString(dims));
                }
                assertEquals(n, product, Arrays.toString(dims));
                assertEquals(minimalSpread(n, k, n), dims[0] - dims[k - 1], "n=" + n + " k=" + k + ": " + Arrays.toString(dims));
            }
        }
    }

    @Test
    void largeAndHighlyCompositeCountsAreQuick() {
        assertArrayEquals(new int[] {1 << 10, 1 << 10, 1 << 10}, TopologyDims.balanced(1 << 30, 3));
        int[] dims = TopologyDims.balanced(735134400, 8); // 1344 divisors
        long product = 1;
        for (int d : dims) {
            product *= d;
        }
        assertEquals(735134400L, product);
        assertArrayEquals(new int[] {Integer.MAX_VALUE, 1}, TopologyDims.balanced(Integer.MAX_VALUE, 2)); // a prime
    }

    /** The smallest max-min over all non-increasing factorizations, by brute force. */
    private static int minimalSpread(int n, int k, int maxFactor) {
        return spread(n, k, maxFactor, -1);
    }

    private static int spread(int remaining, int left, int maxFactor, int first) {
        if (left == 0) {
            return remaining == 1 ? 0 : Integer.MAX_VALUE;
        }
        int best = Integer.MAX_VALUE;
        for (int d = 1; d <= Math.min(maxFactor, remaining); d++) {
            if (remaining % d == 0) {
                int top = first < 0 ? d : first;
                int rest = spread(remaining / d, left - 1, d, top);
                if (rest != Integer.MAX_VALUE) {
                    best = Math.min(best, left == 1 ? top - d : rest);
                }
            }
        }
        return best;
    }

    private static int[] ints(String spaced) {
        return Arrays.stream(spaced.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
    }
}
