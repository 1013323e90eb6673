package mpi;

/**
 * The body of a user-defined reduction operation ({@code MPI_User_function}); wrap it in an
 * {@link Op} with {@code new Op(function, commute)}.
 *
 * <pre>{@code
 * Op product = new Op(new User_function() {
 *     public void Call(Object in, int inoffset, Object inout, int inoutoffset, int count, Datatype type) {
 *         double[] a = (double[]) in, b = (double[]) inout;
 *         for (int i = 0; i < count; i++) {
 *             b[inoutoffset + i] = a[inoffset + i] * b[inoutoffset + i];
 *         }
 *     }
 * }, true);
 * }</pre>
 */
public abstract class User_function {
    /**
     * Combines {@code count} items of {@code datatype}: item {@code i} of {@code inoutvec} becomes
     * {@code invec[i] op inoutvec[i]}. The left operand is {@code invec}: for an operation that is
     * not commutative, the collective passes in the contribution of the lower ranks. Offsets are in
     * base elements and items lie one {@code datatype.Extent()} apart, as in every mpiJava buffer.
     *
     * @param invec first operands, not to be modified
     * @param inoffset offset of the first item in {@code invec}
     * @param inoutvec second operands on entry, results on return
     * @param inoutoffset offset of the first item in {@code inoutvec}
     * @param count number of items
     * @param datatype datatype of each item
     * @throws MPIException to fail the collective that called it
     */
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype)
            throws MPIException;
}
