package mpi;

import java.nio.ByteBuffer;

/**
 * How the elements of one Java array type travel: the table of per-base-type copy strategies that
 * {@link TypeLayout} packs and unpacks through. Primitives go big-endian, {@code boolean} as one byte
 * 0/1; every numeric type is copied in bulk through a {@link ByteBuffer} view, which the JDK turns
 * into a byte-swapping memory copy, so there is no per-element work for large arrays.
 * {@link #OBJECT} has no fixed width: {@link TypeObjects} serializes it.
 */
enum TypeCodec {
    BYTE(byte.class, 1) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.put((byte[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.get((byte[]) array, to, n);
        }
    },
    CHAR(char.class, 2) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.asCharBuffer().put((char[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.asCharBuffer().get((char[]) array, to, n);
        }
    },
    SHORT(short.class, 2) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.asShortBuffer().put((short[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.asShortBuffer().get((short[]) array, to, n);
        }
    },
    BOOLEAN(boolean.class, 1) {
        // ByteBuffer has no boolean view; absolute puts keep this a plain loop without boxing.
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            boolean[] a = (boolean[]) array;
            int p = out.position();
            for (int i = 0; i < n; i++) {
                out.put(p + i, a[from + i] ? (byte) 1 : (byte) 0);
            }
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            boolean[] a = (boolean[]) array;
            int p = in.position();
            for (int i = 0; i < n; i++) {
                a[to + i] = in.get(p + i) != 0;
            }
        }
    },
    INT(int.class, 4) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.asIntBuffer().put((int[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.asIntBuffer().get((int[]) array, to, n);
        }
    },
    LONG(long.class, 8) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.asLongBuffer().put((long[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.asLongBuffer().get((long[]) array, to, n);
        }
    },
    FLOAT(float.class, 4) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.asFloatBuffer().put((float[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.asFloatBuffer().get((float[]) array, to, n);
        }
    },
    DOUBLE(double.class, 8) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            out.asDoubleBuffer().put((double[]) array, from, n);
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            in.asDoubleBuffer().get((double[]) array, to, n);
        }
    },
    OBJECT(Object.class, 0) {
        @Override
        void put(ByteBuffer out, Object array, int from, int n) {
            throw new UnsupportedOperationException("OBJECT elements are serialized by TypeObjects");
        }

        @Override
        void get(ByteBuffer in, Object array, int to, int n) {
            throw new UnsupportedOperationException("OBJECT elements are deserialized by TypeObjects");
        }
    };

    /** Element type of the 1-D arrays this codec reads and writes ({@code Object} for any reference array). */
    final Class<?> component;
    /** Bytes per element on the wire; 0 for {@link #OBJECT}, whose size depends on the objects. */
    final int width;

    TypeCodec(Class<?> component, int width) {
        this.component = component;
        this.width = width;
    }

    boolean isObject() {
        return width == 0;
    }

    /** Writes {@code n} elements of {@code array} from {@code from} at {@code out}'s position, which advances past them. */
    final void encode(Object array, int from, int n, ByteBuffer out) {
        int start = out.position();
        put(out, array, from, n);
        out.position(start + n * width);
    }

    /** Reads {@code n} elements at {@code in}'s position into {@code array} from {@code to}; the position advances past them. */
    final void decode(ByteBuffer in, Object array, int to, int n) {
        int start = in.position();
        get(in, array, to, n);
        in.position(start + n * width);
    }

    /** A fresh 1-D array of {@code n} elements of this codec's type. */
    Object newArray(int n) {
        return java.lang.reflect.Array.newInstance(component, n);
    }

    /** The array type name a buffer for this codec must have, for messages. */
    String arrayName() {
        return component.getSimpleName() + "[]";
    }

    // Views (asIntBuffer etc.) start at the buffer's position and do not move it; encode/decode
    // move it once for all types, so each strategy only copies.
    abstract void put(ByteBuffer out, Object array, int from, int n);

    abstract void get(ByteBuffer in, Object array, int to, int n);
}
