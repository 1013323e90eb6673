package mpi;

/**
 * The base types of mpiJava datatypes: the element type of a message buffer, as codes that the
 * wire form's first byte carries. {@code PACKED} stays distinct from {@code BYTE} so that a message
 * says which it was; {@code LB} and {@code UB} are bound markers without data.
 */
final class BaseType {
    public static final int BYTE = 0;
    public static final int CHAR = 1;
    public static final int SHORT = 2;
    public static final int BOOLEAN = 3;
    public static final int INT = 4;
    public static final int LONG = 5;
    public static final int FLOAT = 6;
    public static final int DOUBLE = 7;
    public static final int OBJECT = 8;
    public static final int PACKED = 9;
    public static final int LB = 10;
    public static final int UB = 11;
    /** The base type of a type without data, such as {@code MPI.LB} or a struct of markers only. */
    public static final int NONE = -1;
    /** How many codes there are, {@code LB} and {@code UB} included. */
    public static final int COUNT = 12;

    private static final String[] NAMES = {
        "BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE", "OBJECT", "PACKED", "LB", "UB"};
    /** By code; PACKED buffers are {@code byte[]}, markers have none. */
    private static final TypeCodec[] CODECS = {
        TypeCodec.BYTE, TypeCodec.CHAR, TypeCodec.SHORT, TypeCodec.BOOLEAN, TypeCodec.INT, TypeCodec.LONG,
        TypeCodec.FLOAT, TypeCodec.DOUBLE, TypeCodec.OBJECT, TypeCodec.BYTE};

    private BaseType() {}

    /** The predefined datatype's name without {@code MPI.}, e.g. {@code INT}. */
    public static String simpleName(int code) {
        return NAMES[code];
    }

    /** E.g. {@code MPI.INT}, or {@code no base type}. */
    public static String name(int code) {
        return code >= 0 && code < NAMES.length ? "MPI." + NAMES[code] : "no base type";
    }

    /** How elements of {@code code} go to and from the wire; null for a type without data. */
    static TypeCodec codec(int code) {
        return code >= 0 && code < CODECS.length ? CODECS[code] : null;
    }

    /** Whether {@code code}'s buffers are {@code byte[]}: BYTE and PACKED mix freely. */
    static boolean bytes(int code) {
        return code == BYTE || code == PACKED;
    }
}
