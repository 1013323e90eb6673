package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Bounds, sizes and type maps of the mpiJava type constructors; type maps are observed through pack. */
class DatatypeConstructorTest {

    /** Lb, Ub, Extent, Size of {@code t}, in that order. */
    private static int[] bounds(Datatype t) throws MPIException {
        return new int[] {t.Lb(), t.Ub(), t.Extent(), t.Size()};
    }

    /** The buffer indices that {@code count} items of {@code t} from {@code offset} read, in type-map order. */
    static int[] indices(Datatype t, int offset, int count, int bufferLength) throws MPIException {
        int[] identity = IntStream.range(0, bufferLength).toArray();
        byte[] packed = t.layout.pack(identity, offset, count);
        int[] read = new int[t.layout.elements(count)];
        MPI.INT.layout.unpack(packed, read, 0, read.length);
        return read;
    }

    static Datatype committed(Datatype t) throws MPIException {
        t.Commit();
        return t;
    }

    @Test
    void predefinedTypesAreOneElementWide() throws MPIException {
        for (Datatype t : new Datatype[] {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT,
                MPI.DOUBLE, MPI.OBJECT, MPI.PACKED}) {
            assertArrayEquals(new int[] {0, 1, 1, 1}, bounds(t), t.toString());
        }
        assertArrayEquals(new int[] {0, 0, 0, 0}, bounds(MPI.LB));
        assertArrayEquals(new int[] {0, 0, 0, 0}, bounds(MPI.UB));
        assertSame(MPI.INT, Datatype.predefined(BaseType.INT));
        assertEquals(BaseType.INT, MPI.INT.layout.baseType());
        assertEquals(BaseType.BYTE, MPI.PACKED.layout.baseType(), "PACKED buffers are byte[]");
        assertEquals(BaseType.NONE, MPI.LB.layout.baseType());
        assertEquals("MPI.DOUBLE", MPI.DOUBLE.toString());
    }

    @Test
    void pairTypesAreTwoContiguousElements() throws MPIException {
        Datatype[] pairs = {MPI.SHORT2, MPI.INT2, MPI.LONG2, MPI.FLOAT2, MPI.DOUBLE2};
        int[] bases = {BaseType.SHORT, BaseType.INT, BaseType.LONG, BaseType.FLOAT, BaseType.DOUBLE};
        for (int i = 0; i < pairs.length; i++) {
            assertArrayEquals(new int[] {0, 2, 2, 2}, bounds(pairs[i]), pairs[i].toString());
            assertEquals(bases[i], pairs[i].layout.baseType());
            assertSame(pairs[i], Datatype.pair(bases[i]));
        }
        assertEquals(6, MPI.INT2.layout.elements(3));
        assertArrayEquals(new int[] {2, 3, 4, 5}, indices(MPI.INT2, 2, 2, 8));
        assertThrows(MPIException.class, MPI.INT2::Free, "pair types are predefined");
    }

    @Test
    void contiguous() throws MPIException {
        Datatype t = committed(Datatype.Contiguous(3, MPI.INT));
        assertArrayEquals(new int[] {0, 3, 3, 3}, bounds(t));
        assertArrayEquals(new int[] {4, 5, 6, 7, 8, 9}, indices(t, 4, 2, 12));
        assertTrue(t.layout.isRun(2), "replicas that abut are one run");
        assertArrayEquals(new int[] {0, 0, 0, 0}, bounds(Datatype.Contiguous(0, MPI.INT)));
        assertEquals("Contiguous(3, MPI.INT)", t.toString());
    }

    @Test
    void vectorIsTheColumnOfARowMajorMatrix() throws MPIException {
        // 4 rows x 3 columns; column 1 is elements 1, 4, 7, 10.
        Datatype column = committed(Datatype.Vector(4, 1, 3, MPI.INT));
        assertArrayEquals(new int[] {0, 10, 10, 4}, bounds(column));
        assertArrayEquals(new int[] {1, 4, 7, 10}, indices(column, 1, 1, 12));
        // Two items: the second starts one extent (10) later.
        assertArrayEquals(new int[] {0, 3, 6, 9, 10, 13, 16, 19}, indices(column, 0, 2, 20));
    }

    @Test
    void vectorWithBlocksAndNegativeStride() throws MPIException {
        Datatype blocks = committed(Datatype.Vector(3, 2, 5, MPI.INT));
        assertArrayEquals(new int[] {0, 12, 12, 6}, bounds(blocks));
        assertArrayEquals(new int[] {0, 1, 5, 6, 10, 11}, indices(blocks, 0, 1, 12));

        Datatype backwards = committed(Datatype.Vector(3, 1, -2, MPI.INT));
        assertArrayEquals(new int[] {-4, 1, 5, 3}, bounds(backwards));
        assertArrayEquals(new int[] {6, 4, 2}, indices(backwards, 6, 1, 8), "type-map order, not address order");
    }

    @Test
    void hvectorStrideIsInBaseElementsNotExtents() throws MPIException {
        Datatype pair = Datatype.Contiguous(2, MPI.INT);
        Datatype v = committed(Datatype.Vector(3, 1, 3, pair));
        Datatype h = committed(Datatype.Hvector(3, 1, 3, pair));
        assertArrayEquals(new int[] {0, 1, 6, 7, 12, 13}, indices(v, 0, 1, 14));
        assertArrayEquals(new int[] {0, 1, 3, 4, 6, 7}, indices(h, 0, 1, 14));
        assertArrayEquals(new int[] {0, 8, 8, 6}, bounds(h));
    }

    @Test
    void indexedAndHindexed() throws MPIException {
        Datatype pair = Datatype.Contiguous(2, MPI.INT);
        Datatype indexed = committed(Datatype.Indexed(new int[] {2, 1}, new int[] {0, 3}, pair));
        assertArrayEquals(new int[] {0, 8, 8, 6}, bounds(indexed));
        assertArrayEquals(new int[] {0, 1, 2, 3, 6, 7}, indices(indexed, 0, 1, 8));

        Datatype hindexed = committed(Datatype.Hindexed(new int[] {2, 1}, new int[] {0, 5}, pair));
        assertArrayEquals(new int[] {0, 7, 7, 6}, bounds(hindexed));
        assertArrayEquals(new int[] {0, 1, 2, 3, 5, 6}, indices(hindexed, 0, 1, 8));

        Datatype withEmptyBlock = committed(Datatype.Indexed(new int[] {1, 0, 2}, new int[] {4, 0, 1}, MPI.INT));
        assertArrayEquals(new int[] {1, 5, 4, 3}, bounds(withEmptyBlock), "an empty block adds no entries");
        assertArrayEquals(new int[] {4, 1, 2}, indices(withEmptyBlock, 0, 1, 6));
    }

    @Test
    void structWithLbAndUbMarkers() throws MPIException {
        Datatype t = committed(Datatype.Struct(new int[] {1, 3, 1}, new int[] {-2, 1, 10},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB}));
        assertArrayEquals(new int[] {-2, 10, 12, 3}, bounds(t));
        assertEquals(BaseType.INT, t.layout.baseType(), "markers do not set the base type");
        // Items are one extent (12) apart; data sits at 1..3 of each.
        assertArrayEquals(new int[] {3, 4, 5, 15, 16, 17}, indices(t, 2, 2, 18));

        Datatype two = Datatype.Contiguous(2, t);
        assertArrayEquals(new int[] {-2, 22, 24, 6}, bounds(two), "markers propagate through replication");
    }

    @Test
    void structUbMarkerResizesAType() throws MPIException {
        // The classic idiom: an INT followed by an UB two elements on makes a strided "every other int".
        Datatype spaced = committed(Datatype.Struct(new int[] {1, 1}, new int[] {0, 2}, new Datatype[] {MPI.INT, MPI.UB}));
        assertArrayEquals(new int[] {0, 2, 2, 1}, bounds(spaced));
        assertArrayEquals(new int[] {1, 3, 5}, indices(spaced, 1, 3, 6));
    }

    @Test
    void markersOverrideDataBoundsOnTheirSideOnly() throws MPIException {
        // An LB above the least data displacement still sets the lower bound; the upper bound comes from data.
        Datatype t = Datatype.Struct(new int[] {2, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.LB});
        assertArrayEquals(new int[] {1, 2, 1, 2}, bounds(t));
        Datatype gap = Datatype.Struct(new int[] {2, 1}, new int[] {0, 4}, new Datatype[] {MPI.INT, MPI.INT});
        assertArrayEquals(new int[] {0, 5, 5, 3}, bounds(gap));
        Datatype onlyMarkers = Datatype.Struct(new int[] {1, 1}, new int[] {-1, 3}, new Datatype[] {MPI.LB, MPI.UB});
        assertArrayEquals(new int[] {-1, 3, 4, 0}, bounds(onlyMarkers));
        assertEquals(BaseType.NONE, onlyMarkers.layout.baseType());
    }

    @Test
    void nestedDerivedTypes() throws MPIException {
        // A 2x2 sub-block of a row-major 4x4 matrix at (1,1), then two such blocks side by side.
        Datatype row = Datatype.Contiguous(2, MPI.INT);
        Datatype block = committed(Datatype.Vector(2, 1, 4, Datatype.Contiguous(1, row)));
        assertArrayEquals(new int[] {0, 10, 10, 4}, bounds(block), "stride counts extents of row (2)");
        Datatype sub = committed(Datatype.Hvector(2, 1, 4, row));
        assertArrayEquals(new int[] {5, 6, 9, 10}, indices(sub, 5, 1, 16));
        Datatype twoBlocks = committed(Datatype.Hindexed(new int[] {1, 1}, new int[] {0, 2}, sub));
        assertArrayEquals(new int[] {5, 6, 9, 10, 7, 8, 11, 12}, indices(twoBlocks, 5, 1, 16));
        Datatype structOfVectors = committed(Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {Datatype.Vector(2, 1, 4, MPI.INT), Datatype.Vector(2, 1, 4, MPI.INT)}));
        assertArrayEquals(new int[] {0, 4, 1, 5}, indices(structOfVectors, 0, 1, 6));
    }

    @Test
    void structComponentsMustShareABaseType() {
        MPIException e = assertThrows(MPIException.class, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        assertTrue(e.getMessage().contains("MPI.INT") && e.getMessage().contains("MPI.DOUBLE"), e.getMessage());
    }

    @Test
    void constructorArgumentErrors() throws MPIException {
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> Datatype.Contiguous(-1, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> Datatype.Vector(2, -1, 3, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> Datatype.Indexed(new int[] {1, 2}, new int[] {0}, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> Datatype.Struct(new int[] {1}, new int[] {0}, new Datatype[0])).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> Datatype.Contiguous(2, null)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> Datatype.Contiguous(Integer.MAX_VALUE, Datatype.Contiguous(4, MPI.INT))).getErrorClass());
    }

    @Test
    void commitAndFree() throws MPIException {
        Datatype t = Datatype.Contiguous(2, MPI.INT);
        assertEquals(2, t.Size(), "queries work before Commit");
        MPIException uncommitted = assertThrows(MPIException.class, () -> t.layout.check(new int[2], 0, 1));
        assertEquals(MPI.ERR_TYPE, uncommitted.getErrorClass());
        assertTrue(uncommitted.getMessage().contains("Commit()"), uncommitted.getMessage());

        t.Commit();
        t.layout.check(new int[2], 0, 1);
        Datatype built = Datatype.Contiguous(2, t);
        t.Free();
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, t::Extent).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, t::Free).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> Datatype.Contiguous(2, t)).getErrorClass());
        assertEquals(4, built.Size(), "types built from a freed type stay valid");
        MPIException predefined = assertThrows(MPIException.class, MPI.INT::Free);
        assertEquals(MPI.ERR_TYPE, predefined.getErrorClass());
    }
}
