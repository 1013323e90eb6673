package samples.mpi;

import mpi.Cartcomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * Parallel Jacobi iteration for Laplace's equation on an N x N grid, split into horizontal strips
 * over a 1-D Cartcomm: halos are exchanged with Sendrecv, and an Allreduce of the largest change
 * decides convergence. Prints the iterations and a checksum of the grid (the same for any number
 * of ranks that divides N).
 *
 * <p>usage: Jacobi [n] [tolerance]
 */
public final class Jacobi {
    private Jacobi() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        double tolerance = args.length > 1 ? Double.parseDouble(args[1]) : 1e-4;
        int size = MPI.COMM_WORLD.Size();
        if (n % size != 0) {
            throw new IllegalArgumentException("the grid size " + n + " must be a multiple of the number of ranks " + size);
        }
        Cartcomm strips = MPI.COMM_WORLD.Create_cart(new int[] {size}, new boolean[] {false}, false);
        int rank = strips.Rank();
        ShiftParms neighbours = strips.Shift(0, 1);
        int rows = n / size;
        // rows + 2 halo rows, each row n + 2 wide (fixed boundary: 1.0 on the top edge of the grid)
        double[] grid = new double[(rows + 2) * (n + 2)];
        double[] next = new double[grid.length];
        int width = n + 2;
        if (rank == 0) {
            java.util.Arrays.fill(grid, 0, width, 1.0);
            java.util.Arrays.fill(next, 0, width, 1.0);
        }
        int iterations = 0;
        double[] localChange = new double[1];
        double[] change = new double[1];
        do {
            // send my first row up and receive the halo below; then the other way
            strips.Sendrecv(grid, width, width, MPI.DOUBLE, neighbours.rank_source, 0,
                    grid, (rows + 1) * width, width, MPI.DOUBLE, neighbours.rank_dest, 0);
            strips.Sendrecv(grid, rows * width, width, MPI.DOUBLE, neighbours.rank_dest, 1,
                    grid, 0, width, MPI.DOUBLE, neighbours.rank_source, 1);
            double largest = 0;
            for (int r = 1; r <= rows; r++) {
                for (int c = 1; c <= n; c++) {
                    int i = r * width + c;
                    next[i] = 0.25 * (grid[i - 1] + grid[i + 1] + grid[i - width] + grid[i + width]);
                    largest = Math.max(largest, Math.abs(next[i] - grid[i]));
                }
            }
            double[] swap = grid;
            grid = next;
            next = swap;
            localChange[0] = largest;
            strips.Allreduce(localChange, 0, change, 0, 1, MPI.DOUBLE, MPI.MAX);
            iterations++;
        } while (change[0] > tolerance);

        double[] partial = {0};
        for (int r = 1; r <= rows; r++) {
            for (int c = 1; c <= n; c++) {
                partial[0] += grid[r * width + c] * ((rank * rows + r) % 7 + c % 5);
            }
        }
        double[] sum = new double[1];
        strips.Reduce(partial, 0, sum, 0, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            System.out.printf("jacobi %dx%d: %d iterations, weighted sum %.6f%n", n, n, iterations, sum[0]);
        }
        MPI.Finalize();
    }
}
