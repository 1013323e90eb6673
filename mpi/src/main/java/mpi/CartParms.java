package mpi;

/**
 * What {@link Cartcomm#Get()} reports (MPI_CART_GET): the extent and periodicity of every
 * dimension, and the calling process's coordinates. The number of dimensions is
 * {@code dims.length}. The arrays are the caller's own copies.
 */
public class CartParms {
    /** Processes along each dimension. */
    public int[] dims;
    /** Whether each dimension wraps around. */
    public boolean[] periods;
    /** The calling process's coordinates. */
    public int[] coords;

    public CartParms() {}

    CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }
}
