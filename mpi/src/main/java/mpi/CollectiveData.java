package mpi;


/**
 * How a collective holds items in its own working buffers: which datatype they travel as, how
 * many of its units an item is, and where item {@code i} lies. Two layouts exist:
 * <ul>
 * <li>{@link #elements}: the bare base elements, one item each. Gathers and scatters use it, since
 *     send and receive datatypes may differ (only the type signatures must agree), and so do
 *     reductions with predefined operations, whose items are runs of {@code Size()} elements.
 * <li>{@link #layout}: items laid out as their own datatype describes them, one extent apart,
 *     for reductions with a {@link User_function}, which is entitled to see its datatype's layout.
 * </ul>
 * Working buffers are fresh 1-D arrays whose item 0 is at offset 0.
 */
final class CollectiveData {
    /** Bytes per element of each base type code on the wire, to choose algorithms by message size; 0 for objects. */
    private static final int[] WIDTH = {1, 2, 2, 1, 4, 8, 4, 8, 0, 1};

    /** What the items travel as. */
    final Datatype type;
    /** Units of {@link #type} per item. */
    private final int perItem;
    /** Base elements from one item to the next in a working buffer. */
    private final int stride;

    private CollectiveData(Datatype type, int perItem, int stride) {
        this.type = type;
        this.perItem = perItem;
        this.stride = stride;
    }

    /** Items of {@code itemType} as runs of flat base elements ({@code itemType.Size()} per item). */
    static CollectiveData flat(Datatype itemType) throws MPIException {
        int base = itemType.layout.baseType();
        if (base == BaseType.NONE) {
            return new CollectiveData(Datatype.predefined(BaseType.BYTE), 0, 0);
        }
        return new CollectiveData(Datatype.predefined(base), itemType.Size(), itemType.Size());
    }

    /** Single base elements of {@code itemType}'s base type. */
    static CollectiveData elements(Datatype itemType) {
        int base = itemType.layout.baseType();
        return new CollectiveData(Datatype.predefined(base == BaseType.NONE ? BaseType.BYTE : base), 1, 1);
    }

    /** Items laid out as {@code itemType} defines, one extent apart. */
    static CollectiveData layout(Datatype itemType) throws MPIException {
        return new CollectiveData(itemType, 1, itemType.Extent());
    }

    /** A fresh working buffer for {@code items} items. */
    Object allocate(int items) {
        return type.layout.allocate(count(items));
    }

    /** Buffer offset of item {@code item} in a working buffer. */
    int position(int item) {
        return item * stride;
    }

    /** Count of {@link #type} units that {@code items} items are. */
    int count(int items) {
        return items * perItem;
    }

    /** Wire bytes of {@code items} items, to tell small messages from large; objects count as small. */
    long bytes(int items) {
        int base = type.layout.baseType();
        return base < 0 ? 0 : (long) type.layout.elements(count(items)) * WIDTH[base];
    }

    /**
     * Copies {@code srcCount} items of {@code srcType} into {@code dst} as {@code dstCount} items of
     * {@code dstType}, which must have the same base type (the type signatures of a collective's
     * sides agree, the layouts need not). Plain runs of 1-D arrays are copied directly; anything
     * else goes through the wire form, which gathers and scatters by the type maps.
     *
     * @throws MPIException ERR_TRUNCATE if the source holds more elements than the destination takes
     */
    static void copy(Object src, int srcOffset, int srcCount, Datatype srcType,
                     Object dst, int dstOffset, int dstCount, Datatype dstType) throws MPIException {
        int n = srcType.layout.elements(srcCount);
        if (n == 0) {
            return;
        }
        if (src.getClass() == dst.getClass() && !src.getClass().getComponentType().isArray()
                && srcType.layout.baseType() == dstType.layout.baseType() && srcType.layout.isRun(srcCount) && dstType.layout.isRun(dstCount)
                && n <= dstType.layout.elements(dstCount)) {
            System.arraycopy(src, srcOffset + srcType.layout.firstDisplacement(), dst, dstOffset + dstType.layout.firstDisplacement(), n);
            return;
        }
        dstType.layout.unpack(srcType.layout.pack(src, srcOffset, srcCount), dst, dstOffset, dstCount);
    }
}
