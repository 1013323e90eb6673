package mpi;


/**
 * What a receive or probe learned of its message: source rank (in the communicator), tag, and how
 * much arrived. {@code index} is set by the {@code Waitany}/{@code Testany} family.
 */
public class Status {
    public int source;
    public int tag;
    public int index = MPI.UNDEFINED;
    private final int elements;
    private final boolean cancelled;

    Status(int source, int tag, int elements, boolean cancelled) {
        this.source = source;
        this.tag = tag;
        this.elements = elements;
        this.cancelled = cancelled;
    }

    /** The status of an operation with nothing to report (a send, a null request, PROC_NULL). */
    static Status empty() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, false);
    }

    static Status cancelledStatus() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, true);
    }

    /** Items of {@code datatype} received, or {@code MPI.UNDEFINED} when not a whole number of them. */
    public int Get_count(Datatype datatype) throws MPIException {
        int perItem = datatype.layout.elements(1);
        if (perItem == 0) {
            return 0;
        }
        return elements % perItem == 0 ? elements / perItem : MPI.UNDEFINED;
    }

    /** Basic elements received (a partial last item counts its elements). */
    public int Get_elements(Datatype datatype) throws MPIException {
        return elements;
    }

    public boolean Test_cancelled() throws MPIException {
        return cancelled;
    }
}
