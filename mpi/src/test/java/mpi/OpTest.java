package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Op#apply} directly: every predefined operation on every base type, against a reference
 * written here; where an operation is undefined, ERR_OP naming both; MINLOC/MAXLOC with ties;
 * derived datatypes and multi-dimensional buffers; user functions.
 */
class OpTest {
    private static final String[] NAMES = {"MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR", "BOR", "LXOR", "BXOR"};
    private static final Datatype[] TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT,
        MPI.DOUBLE, MPI.OBJECT};

    // in op inout, chosen to cover signs, zeros, equal operands and wrap-around of narrow types.
    private static final long[] IN = {5, -3, 0, 7, 0, 100, -128, 1};
    private static final long[] INOUT = {2, -8, 4, 7, 0, 3, -1, -1};

    private static Op op(int code) {
        return Op.predefined(code);
    }

    @Test
    void everyPredefinedOperationOnEveryBaseType() throws MPIException {
        for (int code = Op.MAX_CODE; code <= Op.BXOR_CODE; code++) {
            for (Datatype type : TYPES) {
                int base = type.layout.baseType();
                boolean defined = defined(code, base);
                Object in = array(base, IN);
                Object inout = array(base, INOUT);
                String what = NAMES[code] + " on " + type;
                if (!defined) {
                    int c = code;
                    MPIException e = assertThrows(MPIException.class, () -> op(c).apply(in, 0, inout, 0, IN.length, type), what);
                    assertEquals(MPI.ERR_OP, e.getErrorClass(), what);
                    assertTrue(e.getMessage().contains("MPI." + NAMES[code]) && e.getMessage().contains(type.toString()),
                            what + ": the message names both: " + e.getMessage());
                    continue;
                }
                op(code).apply(in, 1, inout, 1, IN.length - 1, type);
                for (int i = 0; i < IN.length; i++) {
                    Object expected = i == 0 ? Array.get(array(base, INOUT), 0) : reference(code, base, i);
                    assertEquals(expected, Array.get(inout, i), what + " element " + i);
                }
            }
        }
    }

    /** Where MPI (C binding, with Java types) defines each operation. */
    private static boolean defined(int code, int base) {
        boolean integral = base == BaseType.BYTE || base == BaseType.CHAR || base == BaseType.SHORT
                || base == BaseType.INT || base == BaseType.LONG;
        boolean floating = base == BaseType.FLOAT || base == BaseType.DOUBLE;
        return switch (code) {
            case Op.MAX_CODE, Op.MIN_CODE, Op.SUM_CODE, Op.PROD_CODE -> integral || floating;
            case Op.LAND_CODE, Op.LOR_CODE, Op.LXOR_CODE -> integral || base == BaseType.BOOLEAN;
            default -> integral;
        };
    }

    /** The expected element {@code i} of in op inout, in the array's own type. */
    private static Object reference(int code, int base, int i) {
        Object a = array(base, IN);
        Object b = array(base, INOUT);
        if (base == BaseType.BOOLEAN) {
            boolean x = (boolean) Array.get(a, i);
            boolean y = (boolean) Array.get(b, i);
            return switch (code) {
                case Op.LAND_CODE -> x && y;
                case Op.LOR_CODE -> x || y;
                default -> x ^ y;
            };
        }
        if (base == BaseType.FLOAT || base == BaseType.DOUBLE) {
            double x = ((Number) Array.get(a, i)).doubleValue();
            double y = ((Number) Array.get(b, i)).doubleValue();
            double r = switch (code) {
                case Op.MAX_CODE -> Math.max(x, y);
                case Op.MIN_CODE -> Math.min(x, y);
                case Op.SUM_CODE -> x + y;
                default -> x * y;
            };
            return base == BaseType.FLOAT ? (Object) (float) r : (Object) r;
        }
        long x = asLong(Array.get(a, i));
        long y = asLong(Array.get(b, i));
        long r = switch (code) {
            case Op.MAX_CODE -> Math.max(x, y);
            case Op.MIN_CODE -> Math.min(x, y);
            case Op.SUM_CODE -> x + y;
            case Op.PROD_CODE -> x * y;
            case Op.LAND_CODE -> x != 0 && y != 0 ? 1 : 0;
            case Op.LOR_CODE -> x != 0 || y != 0 ? 1 : 0;
            case Op.LXOR_CODE -> (x != 0) != (y != 0) ? 1 : 0;
            case Op.BAND_CODE -> x & y;
            case Op.BOR_CODE -> x | y;
            default -> x ^ y;
        };
        return Array.get(array(base, new long[] {r}), 0);
    }

    private static long asLong(Object boxed) {
        return boxed instanceof Character c ? c : ((Number) boxed).longValue();
    }

    /** {@code values} as an array of the base type (narrowed as a Java cast narrows; booleans are non-zero). */
    private static Object array(int base, long[] values) {
        Object a = switch (base) {
            case BaseType.BYTE -> new byte[values.length];
            case BaseType.CHAR -> new char[values.length];
            case BaseType.SHORT -> new short[values.length];
            case BaseType.BOOLEAN -> new boolean[values.length];
            case BaseType.INT -> new int[values.length];
            case BaseType.LONG -> new long[values.length];
            case BaseType.FLOAT -> new float[values.length];
            case BaseType.DOUBLE -> new double[values.length];
            default -> new Object[values.length];
        };
        for (int i = 0; i < values.length; i++) {
            long v = values[i];
            switch (base) {
                case BaseType.BYTE -> Array.setByte(a, i, (byte) v);
                case BaseType.CHAR -> Array.setChar(a, i, (char) v);
                case BaseType.SHORT -> Array.setShort(a, i, (short) v);
                case BaseType.BOOLEAN -> Array.setBoolean(a, i, v != 0);
                case BaseType.INT -> Array.setInt(a, i, (int) v);
                case BaseType.LONG -> Array.setLong(a, i, v);
                case BaseType.FLOAT -> Array.setFloat(a, i, v + 0.5f);
                case BaseType.DOUBLE -> Array.setDouble(a, i, v + 0.25);
                default -> Array.set(a, i, "s" + v);
            }
        }
        return a;
    }

    @Test
    void narrowTypesWrapAsJavaArithmeticDoes() throws MPIException {
        byte[] b = {(byte) 200};
        op(Op.SUM_CODE).apply(new byte[] {100}, 0, b, 0, 1, MPI.BYTE);
        assertEquals((byte) 44, b[0]);
        char[] c = {65535};
        op(Op.SUM_CODE).apply(new char[] {2}, 0, c, 0, 1, MPI.CHAR);
        assertEquals((char) 1, c[0]);
        char[] m = {'a'};
        op(Op.MAX_CODE).apply(new char[] {60000}, 0, m, 0, 1, MPI.CHAR);
        assertEquals((char) 60000, m[0], "char is unsigned");
        int[] i = {Integer.MAX_VALUE};
        op(Op.PROD_CODE).apply(new int[] {2}, 0, i, 0, 1, MPI.INT);
        assertEquals(-2, i[0]);
    }

    @Test
    void maxlocAndMinlocPreferTheLowerIndexOnTies() throws MPIException {
        int[] in = {5, 3, 5, 1, 2, 0, 9, 9};
        int[] inout = {5, 1, 5, 3, 7, 7, 8, 8};
        int[] max = inout.clone();
        op(Op.MAXLOC_CODE).apply(in, 0, max, 0, 4, MPI.INT2);
        assertArrayEquals(new int[] {5, 1, 5, 1, 7, 7, 9, 9}, max);
        int[] min = inout.clone();
        op(Op.MINLOC_CODE).apply(in, 0, min, 0, 4, MPI.INT2);
        assertArrayEquals(new int[] {5, 1, 5, 1, 2, 0, 8, 8}, min);

        double[] din = {1.5, 4, -2, 0};
        double[] dinout = {1.5, 2, -3, 1};
        op(Op.MAXLOC_CODE).apply(din, 0, dinout, 0, 2, MPI.DOUBLE2);
        assertArrayEquals(new double[] {1.5, 2, -2, 0}, dinout);
        short[] sin = {-1, 6};
        short[] sinout = {-1, 4};
        op(Op.MINLOC_CODE).apply(sin, 0, sinout, 0, 1, MPI.SHORT2);
        assertArrayEquals(new short[] {-1, 4}, sinout);
        long[] lin = {Long.MIN_VALUE, 1};
        long[] linout = {0, 0};
        op(Op.MINLOC_CODE).apply(lin, 0, linout, 0, 1, MPI.LONG2);
        assertArrayEquals(new long[] {Long.MIN_VALUE, 1}, linout);
        float[] fin = {2f, 3f};
        float[] finout = {2f, 1f};
        op(Op.MAXLOC_CODE).apply(fin, 0, finout, 0, 1, MPI.FLOAT2);
        assertArrayEquals(new float[] {2f, 1f}, finout);
    }

    @Test
    void locationOperationsNeedPairs() {
        MPIException e = assertThrows(MPIException.class,
                () -> op(Op.MAXLOC_CODE).apply(new int[2], 0, new int[2], 0, 1, MPI.INT));
        assertEquals(MPI.ERR_OP, e.getErrorClass());
        e = assertThrows(MPIException.class,
                () -> op(Op.MINLOC_CODE).apply(new byte[2], 0, new byte[2], 0, 1, MPI.BYTE));
        assertEquals(MPI.ERR_OP, e.getErrorClass());
        e = assertThrows(MPIException.class,
                () -> op(Op.SUM_CODE).apply(new byte[2], 0, new byte[2], 0, 1, MPI.PACKED));
        assertEquals(MPI.ERR_OP, e.getErrorClass(), "PACKED is not a number");
    }

    @Test
    void derivedTypesAndMultiDimensionalBuffersAreCombinedByTheirTypeMaps() throws MPIException {
        // Every other element: items of Vector(2, 1, 2) are elements {0, 2} and {3, 5} from the offset.
        Datatype strided = Datatype.Vector(2, 1, 2, MPI.INT);
        strided.Commit();
        int[] in = {1, 2, 3, 4, 5, 6, 7};
        int[] inout = {10, 20, 30, 40, 50, 60, 70};
        op(Op.SUM_CODE).apply(in, 1, inout, 0, 2, strided);
        assertArrayEquals(new int[] {12, 20, 34, 45, 50, 67, 70}, inout);

        int[][] grid = {{1, 2, 3}, {4, 5, 6}};
        int[][] acc = {{1, 1, 1}, {1, 1, 1}};
        op(Op.PROD_CODE).apply(grid, 1, acc, 2, 3, MPI.INT);
        assertArrayEquals(new int[] {1, 1, 2}, acc[0]);
        assertArrayEquals(new int[] {3, 4, 1}, acc[1]);
    }

    @Test
    void bufferChecksApply() {
        MPIException e = assertThrows(MPIException.class,
                () -> op(Op.SUM_CODE).apply(new int[2], 0, new int[5], 0, 3, MPI.INT));
        assertEquals(MPI.ERR_BUFFER, e.getErrorClass());
        e = assertThrows(MPIException.class,
                () -> op(Op.SUM_CODE).apply(new long[3], 0, new int[3], 0, 3, MPI.INT));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
    }

    @Test
    void userFunctionsGetTheArgumentsAsGiven() throws MPIException {
        List<String> calls = new ArrayList<>();
        Op concat = new Op(new User_function() {
            @Override
            public void Call(Object in, int inoffset, Object inout, int inoutoffset, int count, Datatype datatype) {
                calls.add(inoffset + "," + inoutoffset + "," + count + "," + datatype);
                Object[] a = (Object[]) in;
                Object[] b = (Object[]) inout;
                for (int k = 0; k < count; k++) {
                    b[inoutoffset + k] = (String) a[inoffset + k] + b[inoutoffset + k];
                }
            }
        }, false);
        assertFalse(concat.Is_commute());
        assertTrue(MPI.SUM.Is_commute());
        String[] inout = {"x", "y", "z"};
        concat.Call(new String[] {"a", "b"}, 0, inout, 1, 2, MPI.OBJECT);
        assertArrayEquals(new String[] {"x", "ay", "bz"}, inout);
        assertEquals(List.of("0,1,2,MPI.OBJECT"), calls);
    }

    @Test
    void freeingAndNullFunctions() throws MPIException {
        assertEquals(MPI.ERR_OP, assertThrows(MPIException.class, () -> MPI.SUM.Free()).getErrorClass());
        assertEquals(MPI.ERR_OP, assertThrows(MPIException.class, () -> new Op(null, true)).getErrorClass());
        Op user = new Op(new User_function() {
            @Override
            public void Call(Object in, int inoffset, Object inout, int inoutoffset, int count, Datatype datatype) {
            }
        }, true);
        user.Free();
        assertEquals(MPI.ERR_OP, assertThrows(MPIException.class,
                () -> user.apply(new int[1], 0, new int[1], 0, 1, MPI.INT)).getErrorClass());
    }

    /** A large vector, to exercise the unboxed loops (no timing is asserted). */
    @Test
    void largeVectors() throws MPIException {
        int n = 1 << 20;
        double[] in = new double[n];
        double[] inout = new double[n];
        for (int i = 0; i < n; i++) {
            in[i] = i;
            inout[i] = 0.5;
        }
        op(Op.SUM_CODE).apply(in, 0, inout, 0, n, MPI.DOUBLE);
        assertEquals(n - 1 + 0.5, inout[n - 1]);
        assertEquals(0.5, inout[0]);
    }
}
