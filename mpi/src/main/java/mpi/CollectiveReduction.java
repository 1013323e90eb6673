package mpi;


/**
 * The operands of one reduction in working form: {@code count} items of a datatype, held as flat
 * base elements for a predefined operation (so derived types and multi-dimensional buffers are
 * gathered once, and every combination runs on plain arrays) or in the datatype's own layout for
 * a user function. Combination is always {@code lower op higher}: the operand of the lower ranks
 * on the left, which is what a non-commutative operation needs.
 */
final class CollectiveReduction {
    final Op op;
    final Datatype datatype;
    final int count;
    final CollectiveData data;

    CollectiveReduction(Op op, Datatype datatype, int count) throws MPIException {
        this.op = op;
        this.datatype = datatype;
        this.count = count;
        this.data = op.isPredefined() ? CollectiveData.flat(datatype) : CollectiveData.layout(datatype);
    }

    boolean commutative() throws MPIException {
        return op.Is_commute();
    }

    /** Wire bytes of the whole vector, for choosing an algorithm. */
    long bytes() {
        return data.bytes(count);
    }

    /** A working buffer for {@code items} items. */
    Object allocate(int items) {
        return data.allocate(items);
    }

    /** A working copy of the caller's {@code count} items at {@code offset} of {@code buf}. */
    Object load(Object buf, int offset) throws MPIException {
        Object work = data.allocate(count);
        CollectiveData.copy(buf, offset, count, datatype, work, 0, data.count(count), data.type);
        return work;
    }

    /** Writes {@code items} items of {@code work} from item {@code item} to the caller's {@code buf} at {@code offset}. */
    void store(Object work, int item, int items, Object buf, int offset) throws MPIException {
        CollectiveData.copy(work, data.position(item), data.count(items), data.type, buf, offset, items, datatype);
    }

    /** {@code higher = lower op higher} on whole vectors; returns {@code higher}, which now holds the result. */
    Object reduce(Object lower, Object higher) throws MPIException {
        combine(lower, 0, higher, 0, count);
        return higher;
    }

    /** {@code inout[item..] = in[item..] op inout[item..]} for {@code items} items of two working buffers. */
    void combine(Object in, int inItem, Object inout, int inoutItem, int items) throws MPIException {
        if (items == 0) {
            return;
        }
        if (op.isPredefined()) {
            op.combine(data.type.layout.baseType(), in, data.position(inItem), inout, data.position(inoutItem), data.count(items));
        } else {
            op.function().Call(in, data.position(inItem), inout, data.position(inoutItem), items, datatype);
        }
    }
}
