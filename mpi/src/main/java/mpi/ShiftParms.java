package mpi;

/**
 * What {@link Cartcomm#Shift(int, int)} computes (MPI_CART_SHIFT): the rank to receive from and
 * the rank to send to, either of which is {@code MPI.PROC_NULL} past a non-periodic edge.
 */
public class ShiftParms {
    public int rank_source;
    public int rank_dest;

    public ShiftParms() {}

    ShiftParms(int rankSource, int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }
}
