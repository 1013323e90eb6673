package mpi;


/**
 * A reduction operation for {@code Reduce}, {@code Allreduce}, {@code Reduce_scatter} and
 * {@code Scan}: one of the predefined {@code MPI.MAX ... MPI.MAXLOC}, or a {@link User_function}.
 *
 * <p>Where the predefined operations apply (as in MPI's C binding, with Java's types):
 * <ul>
 * <li>{@code MAX, MIN, SUM, PROD}: byte, char, short, int, long, float, double. Integer results
 *     wrap around as Java arithmetic does.
 * <li>{@code LAND, LOR, LXOR}: boolean, and the integral types (byte, char, short, int, long) read
 *     as C does, non-zero being true and the result 1 or 0.
 * <li>{@code BAND, BOR, BXOR}: the integral types.
 * <li>{@code MINLOC, MAXLOC}: the pair types {@code MPI.SHORT2, INT2, LONG2, FLOAT2, DOUBLE2},
 *     whose items are a value followed by its index; of equal values the lower index wins.
 * </ul>
 * Any other combination (e.g. {@code BAND} on {@code MPI.DOUBLE}, anything on {@code MPI.OBJECT})
 * fails with {@code MPI.ERR_OP}.
 */
public class Op {
    static final int MAX_CODE = 0;
    static final int MIN_CODE = 1;
    static final int SUM_CODE = 2;
    static final int PROD_CODE = 3;
    static final int LAND_CODE = 4;
    static final int BAND_CODE = 5;
    static final int LOR_CODE = 6;
    static final int BOR_CODE = 7;
    static final int LXOR_CODE = 8;
    static final int BXOR_CODE = 9;
    static final int MINLOC_CODE = 10;
    static final int MAXLOC_CODE = 11;
    private static final int USER_CODE = -1;

    private static final String[] NAMES = {
        "MPI.MAX", "MPI.MIN", "MPI.SUM", "MPI.PROD", "MPI.LAND", "MPI.BAND", "MPI.LOR", "MPI.BOR", "MPI.LXOR",
        "MPI.BXOR", "MPI.MINLOC", "MPI.MAXLOC"};

    // The table of where each predefined operation is defined: a bit per base type code.
    private static final int INTEGRAL = bits(BaseType.BYTE, BaseType.CHAR, BaseType.SHORT,
            BaseType.INT, BaseType.LONG);
    private static final int NUMERIC = INTEGRAL | bits(BaseType.FLOAT, BaseType.DOUBLE);
    private static final int LOGICAL = INTEGRAL | bits(BaseType.BOOLEAN);
    private static final int PAIRS = bits(BaseType.SHORT, BaseType.INT, BaseType.LONG,
            BaseType.FLOAT, BaseType.DOUBLE);
    private static final int[] DOMAIN = {
        NUMERIC, NUMERIC, NUMERIC, NUMERIC, LOGICAL, INTEGRAL, LOGICAL, INTEGRAL, LOGICAL, INTEGRAL, PAIRS, PAIRS};
    private static final String[] DOMAIN_NAMES = {
        "byte, char, short, int, long, float and double", "byte, char, short, int, long, float and double",
        "byte, char, short, int, long, float and double", "byte, char, short, int, long, float and double",
        "boolean, byte, char, short, int and long", "byte, char, short, int and long",
        "boolean, byte, char, short, int and long", "byte, char, short, int and long",
        "boolean, byte, char, short, int and long", "byte, char, short, int and long",
        "the pair types MPI.SHORT2, INT2, LONG2, FLOAT2 and DOUBLE2", "the pair types MPI.SHORT2, INT2, LONG2, FLOAT2 and DOUBLE2"};

    /** The 1-D array class of each primitive base type, for telling whether a buffer can be worked on in place. */
    private static final Class<?>[] ARRAYS = {
        byte[].class, char[].class, short[].class, boolean[].class, int[].class, long[].class, float[].class,
        double[].class};

    private final int code;
    private final User_function function;
    private final boolean commute;
    private volatile boolean freed;

    /**
     * A user-defined operation ({@code MPI_OP_CREATE}). It must be associative; if
     * {@code commute} is false the collectives combine contributions in rank order, which MPI
     * requires, at some cost in parallelism.
     *
     * @param function computes {@code inoutvec = invec op inoutvec}
     * @param commute whether the operation is commutative
     * @throws MPIException ERR_OP if {@code function} is null
     */
    public Op(User_function function, boolean commute) throws MPIException {
        if (function == null) {
            throw new MPIException(MPI.ERR_OP, "the user function of an Op must not be null");
        }
        this.code = USER_CODE;
        this.function = function;
        this.commute = commute;
    }

    private Op(int code) {
        this.code = code;
        this.function = null;
        this.commute = true;
    }

    static Op predefined(int code) {
        return new Op(code);
    }

    /** Whether the operation is commutative ({@code MPI_OP_COMMUTATIVE}); true for every predefined one. */
    public boolean Is_commute() throws MPIException {
        return commute;
    }

    /**
     * Frees a user-defined operation ({@code MPI_OP_FREE}); collectives then refuse it.
     *
     * @throws MPIException ERR_OP for a predefined operation, which cannot be freed
     */
    public void Free() throws MPIException {
        if (function == null) {
            throw new MPIException(MPI.ERR_OP, this + " is predefined and cannot be freed");
        }
        freed = true;
    }

    /**
     * Applies the operation as a reduction would: item {@code i} of {@code inoutvec} becomes
     * {@code invec[i] op inoutvec[i]}, for {@code count} items of {@code datatype}.
     *
     * @throws MPIException ERR_OP if the operation is not defined on {@code datatype} or was freed,
     *     or as the buffers' checks ({@code ERR_BUFFER}, {@code ERR_TYPE}, {@code ERR_COUNT})
     */
    public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype)
            throws MPIException {
        apply(invec, inoffset, inoutvec, inoutoffset, count, datatype);
    }

    @Override
    public String toString() {
        return function == null ? NAMES[code] : "Op(" + function.getClass().getName() + (commute ? ", commutative)" : ")");
    }

    // ---- engine contract ----------------------------------------------------------------------

    /** Whether this is a predefined operation, which {@link #combine} applies to flat base-type arrays. */
    boolean isPredefined() {
        return function == null;
    }

    User_function function() {
        return function;
    }

    /**
     * {@code inout = in op inout} element-wise on {@code count} items of {@code datatype}, whatever
     * the buffers' shape (derived types and multi-dimensional arrays are gathered to flat arrays).
     */
    void apply(Object in, int inOffset, Object inout, int inoutOffset, int count, Datatype datatype)
            throws MPIException {
        checkUsable(datatype);
        if (function != null) {
            function.Call(in, inOffset, inout, inoutOffset, count, datatype);
            return;
        }
        datatype.layout.check(in, inOffset, count);
        datatype.layout.check(inout, inoutOffset, count);
        int base = datatype.layout.baseType();
        int n = datatype.layout.elements(count);
        if (n == 0) {
            return;
        }
        if (inPlace(in, datatype, count) && inPlace(inout, datatype, count)) {
            combine(base, in, inOffset + datatype.layout.firstDisplacement(), inout, inoutOffset + datatype.layout.firstDisplacement(), n);
            return;
        }
        Datatype flat = Datatype.predefined(base);
        Object a = flat.layout.allocate(n);
        Object b = flat.layout.allocate(n);
        flat.layout.unpack(datatype.layout.pack(in, inOffset, count), a, 0, n);
        flat.layout.unpack(datatype.layout.pack(inout, inoutOffset, count), b, 0, n);
        combine(base, a, 0, b, 0, n);
        datatype.layout.unpack(flat.layout.pack(b, 0, n), inout, inoutOffset, count);
    }

    /**
     * Checks, before a collective sends anything, that the operation may be used on
     * {@code datatype}: not freed, and for a predefined operation defined on its base type.
     *
     * @throws MPIException ERR_OP naming the operation, the datatype and where the operation is defined
     */
    void checkUsable(Datatype datatype) throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_OP, this + " has been freed");
        }
        if (datatype == null) {
            throw new MPIException(MPI.ERR_TYPE, "datatype is null");
        }
        if (function != null) {
            return;
        }
        int base = datatype.layout.base(); // unlike baseType(), keeps PACKED apart from BYTE: it holds no numbers
        if (base == BaseType.NONE) {
            return; // no data, nothing to combine
        }
        if (base >= ARRAYS.length || (DOMAIN[code] & (1 << base)) == 0) {
            throw new MPIException(MPI.ERR_OP, NAMES[code] + " is not defined on " + datatype + " (base type "
                    + BaseType.name(base) + "); it applies to " + DOMAIN_NAMES[code]);
        }
        if ((code == MINLOC_CODE || code == MAXLOC_CODE) && datatype.Size() % 2 != 0) {
            throw new MPIException(MPI.ERR_OP, NAMES[code] + " works on (value, index) pairs such as MPI.INT2, but an"
                    + " item of " + datatype + " holds " + datatype.Size() + " elements, an odd number");
        }
    }

    /**
     * The predefined operation on {@code n} consecutive elements of two 1-D arrays of base type
     * {@code base}: {@code inout[inoutPos + k] = in[inPos + k] op inout[inoutPos + k]}. The caller
     * has checked the operation with {@link #checkUsable}.
     */
    void combine(int base, Object in, int inPos, Object inout, int inoutPos, int n) {
        if (code == MINLOC_CODE || code == MAXLOC_CODE) {
            locate(code == MAXLOC_CODE, base, in, inPos, inout, inoutPos, n);
            return;
        }
        int op = code;
        // One loop per array type; the operation is a loop-invariant switch in the family's rule,
        // which the JIT inlines, so the loops stay unboxed and specialized enough to be fast.
        switch (base) {
            case BaseType.BYTE -> {
                byte[] a = (byte[]) in, c = (byte[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = (byte) integral(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.CHAR -> {
                char[] a = (char[]) in, c = (char[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = (char) integral(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.SHORT -> {
                short[] a = (short[]) in, c = (short[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = (short) integral(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.INT -> {
                int[] a = (int[]) in, c = (int[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = (int) integral(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.LONG -> {
                long[] a = (long[]) in, c = (long[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = integral(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.FLOAT -> {
                float[] a = (float[]) in, c = (float[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = (float) floating(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.DOUBLE -> {
                double[] a = (double[]) in, c = (double[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = floating(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            case BaseType.BOOLEAN -> {
                boolean[] a = (boolean[]) in, c = (boolean[]) inout;
                for (int k = 0; k < n; k++) {
                    c[inoutPos + k] = logical(op, a[inPos + k], c[inoutPos + k]);
                }
            }
            default -> throw new IllegalStateException(NAMES[op] + " on base type " + BaseType.name(base));
        }
    }

    // ---- the rules, one per family of types -----------------------------------------------------

    /**
     * Integral types are computed as long and narrowed back by the caller: the low bits of a long
     * sum, product or bitwise result are exactly those of the narrower type's, and char widens
     * without sign, so one rule serves byte, char, short, int and long.
     */
    private static long integral(int op, long a, long b) {
        return switch (op) {
            case MAX_CODE -> Math.max(a, b);
            case MIN_CODE -> Math.min(a, b);
            case SUM_CODE -> a + b;
            case PROD_CODE -> a * b;
            case LAND_CODE -> a != 0 && b != 0 ? 1 : 0;
            case LOR_CODE -> a != 0 || b != 0 ? 1 : 0;
            case LXOR_CODE -> (a != 0) != (b != 0) ? 1 : 0;
            case BAND_CODE -> a & b;
            case BOR_CODE -> a | b;
            case BXOR_CODE -> a ^ b;
            default -> throw new IllegalStateException(NAMES[op] + " on an integral type");
        };
    }

    /**
     * float is computed as double and rounded back: a double holds the exact float sum or product
     * of two floats to well within one rounding, so the result equals float arithmetic's.
     */
    private static double floating(int op, double a, double b) {
        return switch (op) {
            case MAX_CODE -> Math.max(a, b);
            case MIN_CODE -> Math.min(a, b);
            case SUM_CODE -> a + b;
            case PROD_CODE -> a * b;
            default -> throw new IllegalStateException(NAMES[op] + " on a floating-point type");
        };
    }

    private static boolean logical(int op, boolean a, boolean b) {
        return switch (op) {
            case LAND_CODE -> a && b;
            case LOR_CODE -> a || b;
            case LXOR_CODE -> a != b;
            default -> throw new IllegalStateException(NAMES[op] + " on boolean");
        };
    }

    /** MINLOC/MAXLOC over (value, index) pairs; a pair is copied whole, so one loop serves every pair type. */
    private static void locate(boolean max, int base, Object in, int inPos, Object inout, int inoutPos, int n) {
        int better = max ? 1 : -1;
        for (int k = 0; k + 1 < n; k += 2) {
            int byValue = compare(base, in, inPos + k, inout, inoutPos + k);
            if (byValue == better || (byValue == 0 && compare(base, in, inPos + k + 1, inout, inoutPos + k + 1) < 0)) {
                System.arraycopy(in, inPos + k, inout, inoutPos + k, 2);
            }
        }
    }

    /** -1, 0 or 1 as C's {@code <}, {@code ==} and {@code >} decide; 2 when unordered (NaN), so that neither pair wins. */
    private static int compare(int base, Object a, int i, Object b, int j) {
        return switch (base) {
            case BaseType.SHORT -> Integer.signum(Short.compare(((short[]) a)[i], ((short[]) b)[j]));
            case BaseType.INT -> Integer.compare(((int[]) a)[i], ((int[]) b)[j]);
            case BaseType.LONG -> Long.compare(((long[]) a)[i], ((long[]) b)[j]);
            case BaseType.FLOAT -> compare(((float[]) a)[i], ((float[]) b)[j]);
            case BaseType.DOUBLE -> compare(((double[]) a)[i], ((double[]) b)[j]);
            default -> throw new IllegalStateException("MINLOC/MAXLOC on base type " + BaseType.name(base));
        };
    }

    private static int compare(double x, double y) {
        return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
    }

    /** Whether {@code count} items of {@code datatype} are one run of a plain 1-D array, usable without copying. */
    private static boolean inPlace(Object buf, Datatype datatype, int count) {
        int base = datatype.layout.baseType();
        return base >= 0 && base < ARRAYS.length && buf.getClass() == ARRAYS[base] && datatype.layout.isRun(count);
    }

    private static int bits(int... baseTypes) {
        int mask = 0;
        for (int t : baseTypes) {
            mask |= 1 << t;
        }
        return mask;
    }
}
