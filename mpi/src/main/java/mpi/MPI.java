package mpi;

import dev.distvm.mpi.engine.Job;
import dev.distvm.mpi.engine.Matcher;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The MPI environment (mpiJava 1.2): {@code Init}/{@code Finalize}, the world communicator, the
 * predefined datatypes, operations and constants.
 *
 * <pre>{@code
 * public static void main(String[] args) throws MPIException {
 *     MPI.Init(args);
 *     int rank = MPI.COMM_WORLD.Rank();
 *     int[] value = {rank};
 *     MPI.COMM_WORLD.Allreduce(value, 0, value, 0, 1, MPI.INT, MPI.SUM);
 *     MPI.Finalize();
 * }
 * }</pre>
 *
 * Run it with {@code ./dist mpirun -np 4 -- -cp app.jar Main}; started without mpirun, a
 * program is a job of one rank.
 */
public class MPI {
    // ---- error classes ----
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_LASTCODE = 19;

    // ---- special values ----
    public static final int ANY_SOURCE = Matcher.ANY_SOURCE;
    public static final int ANY_TAG = Matcher.ANY_TAG;
    public static final int PROC_NULL = -3;
    public static final int UNDEFINED = -32766;
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    public static final int GRAPH = 1;
    public static final int CART = 2;
    /** Bytes that {@link #Buffer_attach} space must hold beyond the packed message, per buffered send. */
    public static final int BSEND_OVERHEAD = 64;

    // ---- predefined attribute keys ----
    public static final int TAG_UB = 1;
    public static final int HOST = 2;
    public static final int IO = 3;
    static final int TAG_UB_VALUE = Integer.MAX_VALUE;

    // ---- predefined datatypes ----
    public static final Datatype BYTE = Datatype.predefined(BaseType.BYTE);
    public static final Datatype CHAR = Datatype.predefined(BaseType.CHAR);
    public static final Datatype SHORT = Datatype.predefined(BaseType.SHORT);
    public static final Datatype BOOLEAN = Datatype.predefined(BaseType.BOOLEAN);
    public static final Datatype INT = Datatype.predefined(BaseType.INT);
    public static final Datatype LONG = Datatype.predefined(BaseType.LONG);
    public static final Datatype FLOAT = Datatype.predefined(BaseType.FLOAT);
    public static final Datatype DOUBLE = Datatype.predefined(BaseType.DOUBLE);
    public static final Datatype PACKED = Datatype.predefined(BaseType.PACKED);
    public static final Datatype LB = Datatype.predefined(BaseType.LB);
    public static final Datatype UB = Datatype.predefined(BaseType.UB);
    public static final Datatype OBJECT = Datatype.predefined(BaseType.OBJECT);
    public static final Datatype SHORT2 = Datatype.pair(BaseType.SHORT);
    public static final Datatype INT2 = Datatype.pair(BaseType.INT);
    public static final Datatype LONG2 = Datatype.pair(BaseType.LONG);
    public static final Datatype FLOAT2 = Datatype.pair(BaseType.FLOAT);
    public static final Datatype DOUBLE2 = Datatype.pair(BaseType.DOUBLE);

    // ---- predefined operations ----
    public static final Op MAX = Op.predefined(Op.MAX_CODE);
    public static final Op MIN = Op.predefined(Op.MIN_CODE);
    public static final Op SUM = Op.predefined(Op.SUM_CODE);
    public static final Op PROD = Op.predefined(Op.PROD_CODE);
    public static final Op LAND = Op.predefined(Op.LAND_CODE);
    public static final Op BAND = Op.predefined(Op.BAND_CODE);
    public static final Op LOR = Op.predefined(Op.LOR_CODE);
    public static final Op BOR = Op.predefined(Op.BOR_CODE);
    public static final Op LXOR = Op.predefined(Op.LXOR_CODE);
    public static final Op BXOR = Op.predefined(Op.BXOR_CODE);
    public static final Op MINLOC = Op.predefined(Op.MINLOC_CODE);
    public static final Op MAXLOC = Op.predefined(Op.MAXLOC_CODE);

    /** The request of no operation: waiting on it or testing it returns an empty status at once. */
    public static final Request REQUEST_NULL = new Request(null, null);
    /** MPJ Express's addition: the processors this rank's JVM may use. */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();

    // ---- error handlers ----
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    public static final Errhandler ERRORS_RETURN = new Errhandler(false);

    // ---- the environment of this rank ----
    public static Intracomm COMM_WORLD;
    public static Intracomm COMM_SELF;
    public static Group GROUP_EMPTY;

    private static Job job;
    private static boolean finalized;
    /** The attached buffer: a byte[] (mpiJava) or a ByteBuffer (MPJ Express); null when none is. */
    private static Object attachedBuffer;
    private static final long START_NANOS = System.nanoTime();

    MPI() {}

    /**
     * Joins the job (mpirun's, or a job of one rank when started without it) and sets up
     * {@link #COMM_WORLD}. Returns the arguments: dist passes none of its own through them.
     */
    public static String[] Init(String[] args) throws MPIException {
        if (job != null) {
            throw new MPIException(ERR_OTHER, "MPI.Init was already called");
        }
        if (finalized) {
            throw new MPIException(ERR_OTHER, "MPI.Init after MPI.Finalize is not allowed");
        }
        try {
            job = Job.current();
        } catch (IOException | RuntimeException e) {
            throw new MPIException(ERR_OTHER, "MPI.Init failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MPIException(ERR_OTHER, "interrupted in MPI.Init", e);
        }
        int rank = job.messenger().rank();
        int size = job.messenger().size();
        int[] world = new int[size];
        for (int i = 0; i < size; i++) {
            world[i] = i;
        }
        COMM_WORLD = new Intracomm(job.messenger(), new Group(world, rank), Intracomm.WORLD_CONTEXT);
        COMM_SELF = new Intracomm(job.messenger(), new Group(new int[] {rank}, rank), Intracomm.SELF_CONTEXT);
        GROUP_EMPTY = new Group(new int[0], rank);
        return args;
    }

    /** Leaves the job. Messages this rank sent are delivered; no MPI call may follow. */
    public static void Finalize() throws MPIException {
        checkInitialized();
        job.finish();
        job = null;
        finalized = true;
    }

    public static boolean Initialized() throws MPIException {
        return job != null || finalized;
    }

    /** Wall-clock seconds since an arbitrary origin, with nanosecond resolution. */
    public static double Wtime() {
        return (System.nanoTime() - START_NANOS) / 1e9;
    }

    public static double Wtick() {
        return 1e-9;
    }

    public static String Get_processor_name() throws MPIException {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** Space for buffered sends ({@code Bsend}); one buffer at a time, as MPI defines. */
    public static void Buffer_attach(byte[] buffer) throws MPIException {
        attach(buffer);
    }

    /** MPJ Express's form of {@link #Buffer_attach(byte[])}: its capacity is the space. */
    public static void Buffer_attach(ByteBuffer buffer) throws MPIException {
        attach(buffer);
    }

    private static void attach(Object buffer) throws MPIException {
        if (attachedBuffer != null) {
            throw new MPIException(ERR_BUFFER, "a buffer is already attached; detach it first");
        }
        attachedBuffer = buffer;
    }

    /** The space the attached buffer offers; 0 when none is attached. */
    private static int attachedBytes() {
        if (attachedBuffer instanceof ByteBuffer buffer) {
            return buffer.capacity();
        }
        return attachedBuffer == null ? 0 : ((byte[]) attachedBuffer).length;
    }

    /**
     * Detaches the attached buffer and returns it: the byte[] given to {@code Buffer_attach}, or
     * the array behind an attached ByteBuffer (null for a direct one, whose caller holds it anyway).
     */
    public static byte[] Buffer_detach() throws MPIException {
        Object detached = attachedBuffer;
        attachedBuffer = null;
        if (detached instanceof ByteBuffer buffer) {
            return buffer.hasArray() ? buffer.array() : null;
        }
        return (byte[]) detached;
    }

    /**
     * dist's buffered sends copy the message at once (the packed payload is the copy), so the
     * attached buffer is never written; what MPI requires is that it be large enough.
     */
    static void checkAttachedBuffer(int packedBytes) throws MPIException {
        int attached = attachedBytes();
        if (attached < packedBytes + BSEND_OVERHEAD) {
            throw new MPIException(ERR_BUFFER, "a buffered send of " + packedBytes + " bytes needs an attached buffer of at least "
                    + (packedBytes + BSEND_OVERHEAD) + " bytes (MPI.Buffer_attach); attached: "
                    + attached);
        }
    }

    static void checkInitialized() throws MPIException {
        if (job == null) {
            throw new MPIException(ERR_OTHER, finalized ? "MPI was finalized" : "call MPI.Init first");
        }
    }

    /** Ends this rank at once with {@code code}; mpirun then ends the others. */
    static void abortJob(int code) {
        System.err.flush();
        System.out.flush();
        Runtime.getRuntime().halt(code == 0 ? 1 : code);
    }
}
