package mpi;

import static mpi.DatatypeConstructorTest.committed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** MPI.OBJECT: serialization, the deserialization allow list and limits, class resolution per rank loader. */
class DatatypeObjectTest {

    record Point(int x, int y) implements Serializable {
    }

    enum Colour { RED, GREEN }

    static final class Node implements Serializable {
        private static final long serialVersionUID = 1L;
        final int value;
        final Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    private static Node chain(int length) {
        Node head = null;
        for (int i = 0; i < length; i++) {
            head = new Node(i, head);
        }
        return head;
    }

    private static Object[] roundTrip(Object... objects) throws MPIException {
        Object[] back = new Object[objects.length];
        assertEquals(objects.length, MPI.OBJECT.layout.unpack(MPI.OBJECT.layout.pack(objects, 0, objects.length), back, 0, objects.length));
        return back;
    }

    @Test
    void nullsStringsArraysAndApplicationClassesRoundTripWithOffsets() throws MPIException {
        Object[] source = {"skip", "text", null, new Point(1, 2), new int[] {3, 4}, new String[] {"a", null}, 42, null};
        Object[] target = new Object[8];
        byte[] message = MPI.OBJECT.layout.pack(source, 1, 6);
        assertEquals(6, MPI.OBJECT.layout.messageElements(message));
        assertEquals(6, MPI.OBJECT.layout.unpack(message, target, 2, 6));
        assertArrayEquals(new Object[] {null, null, "text", null, new Point(1, 2), new int[] {3, 4},
                new String[] {"a", null}, 42}, target);
    }

    @Test
    void commonJdkValuesAreAccepted() throws MPIException {
        Map<String, List<Integer>> map = new HashMap<>(Map.of("k", new ArrayList<>(List.of(1, 2))));
        Object[] values = {
            new ArrayList<>(List.of("a", "b")), new LinkedList<>(List.of(1L)), map, new TreeMap<>(Map.of(1, "one")),
            new LinkedHashMap<>(Map.of("x", 1.5)), new HashSet<>(Set.of('c')), Arrays.asList(1, 2, 3), List.of(4, 5),
            Map.of("m", true), Collections.unmodifiableList(new ArrayList<>(List.of(6))), Collections.emptyList(),
            new ConcurrentHashMap<>(Map.of("c", 7)), new BigInteger("123456789012345678901234567890"),
            new BigDecimal("1.25"), LocalDate.of(2024, 2, 29), Instant.ofEpochSecond(1_700_000_000L),
            Duration.ofMillis(1500), ZonedDateTime.of(2024, 1, 2, 3, 4, 5, 0, java.time.ZoneId.of("Europe/Paris")),
            Colour.GREEN, java.util.EnumSet.of(Colour.RED), new java.util.Date(0), new byte[][] {{1}, {2, 3}}};
        Object[] back = roundTrip(values);
        assertArrayEquals(values, back);
        assertSame(Colour.GREEN, back[18], "enum constants stay singletons");
    }

    @Test
    void refusedJdkClassGivesMPIExceptionNamingIt() throws Exception {
        byte[] url = MPI.OBJECT.layout.pack(new Object[] {new URL("http://example.invalid/")}, 0, 1);
        MPIException e = assertThrows(MPIException.class, () -> MPI.OBJECT.layout.unpack(url, new Object[1], 0, 1));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        assertTrue(e.getMessage().contains("java.net.URL"), e.getMessage());

        Object gadget = new javax.management.BadAttributeValueExpException("value");
        byte[] nested = MPI.OBJECT.layout.pack(new Object[] {new ArrayList<>(List.of(gadget))}, 0, 1);
        MPIException inside = assertThrows(MPIException.class, () -> MPI.OBJECT.layout.unpack(nested, new Object[1], 0, 1));
        assertEquals(MPI.ERR_TYPE, inside.getErrorClass());
        assertTrue(inside.getMessage().contains("javax.management.BadAttributeValueExpException"), inside.getMessage());
    }

    @Test
    void unserializableElementIsNamedBySender() {
        MPIException e = assertThrows(MPIException.class,
                () -> MPI.OBJECT.layout.pack(new Object[] {"fine", new Object()}, 0, 2));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        assertTrue(e.getMessage().contains("element 1") && e.getMessage().contains("java.lang.Object"), e.getMessage());
    }

    @Test
    void nestingIsBounded() throws MPIException {
        Node shallow = (Node) roundTrip(chain(100))[0];
        assertEquals(99, shallow.value);
        byte[] deep = MPI.OBJECT.layout.pack(new Object[] {chain(TypeObjects.MAX_DEPTH + 10)}, 0, 1);
        MPIException e = assertThrows(MPIException.class, () -> MPI.OBJECT.layout.unpack(deep, new Object[1], 0, 1));
        assertTrue(e.getMessage().contains("deeper than " + TypeObjects.MAX_DEPTH), e.getMessage());
    }

    @Test
    void classesResolveThroughTheContextClassLoader() throws Exception {
        byte[] message = MPI.OBJECT.layout.pack(new Object[] {new Point(5, 6)}, 0, 1);
        Thread thread = Thread.currentThread();
        ClassLoader original = thread.getContextClassLoader();
        // A rank of mpirun's threads mode: its own loader defines its own copy of the application's classes.
        try (RankLoader rank = new RankLoader(original)) {
            thread.setContextClassLoader(rank);
            Object[] back = new Object[1];
            MPI.OBJECT.layout.unpack(message, back, 0, 1);
            assertSame(rank, back[0].getClass().getClassLoader());
            assertNotSame(Point.class, back[0].getClass());
            assertEquals("Point[x=5, y=6]", back[0].toString());

            // A loader that cannot see the class at all.
            thread.setContextClassLoader(ClassLoader.getPlatformClassLoader());
            MPIException e = assertThrows(MPIException.class, () -> MPI.OBJECT.layout.unpack(message, new Object[1], 0, 1));
            assertEquals(MPI.ERR_TYPE, e.getErrorClass());
            assertTrue(e.getMessage().contains(Point.class.getName()), e.getMessage());
        } finally {
            thread.setContextClassLoader(original);
        }
    }

    @Test
    void derivedObjectTypesAndTypedReceiveBuffers() throws MPIException {
        Datatype everyOther = committed(Datatype.Vector(3, 1, 2, MPI.OBJECT));
        String[] source = {"a", "x", "b", "x", "c"};
        String[] target = new String[3];
        MPI.OBJECT.layout.unpack(everyOther.layout.pack(source, 0, 1), target, 0, 3);
        assertArrayEquals(new String[] {"a", "b", "c"}, target);

        byte[] numbers = MPI.OBJECT.layout.pack(new Object[] {"ok", 1}, 0, 2);
        String[] strings = new String[2];
        MPIException e = assertThrows(MPIException.class, () -> MPI.OBJECT.layout.unpack(numbers, strings, 0, 2));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        assertTrue(e.getMessage().contains("java.lang.Integer") && e.getMessage().contains("java.lang.String"), e.getMessage());
        assertArrayEquals(new String[2], strings, "nothing is written when an object does not fit");
    }

    @Test
    void objectTruncationPackAndPackSize() throws MPIException {
        byte[] three = MPI.OBJECT.layout.pack(new Object[] {1, 2, 3}, 0, 3);
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class,
                () -> MPI.OBJECT.layout.unpack(three, new Object[5], 0, 2)).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> MPI.OBJECT.layout.packSize(1)).getErrorClass());

        byte[] packed = new byte[1024];
        int position = MPI.INT.layout.packInto(new int[] {7}, 0, 1, packed, 0);
        position = MPI.OBJECT.layout.packInto(new Object[] {"s", null, new Point(0, 1)}, 0, 3, packed, position);
        position = MPI.INT.layout.packInto(new int[] {8}, 0, 1, packed, position);
        int[] first = new int[1];
        Object[] objects = new Object[4];
        int[] last = new int[1];
        int read = MPI.INT.layout.unpackFrom(packed, 0, first, 0, 1);
        read = MPI.OBJECT.layout.unpackFrom(packed, read, objects, 1, 3);
        read = MPI.INT.layout.unpackFrom(packed, read, last, 0, 1);
        assertEquals(position, read);
        assertArrayEquals(new Object[] {null, "s", null, new Point(0, 1)}, objects);
        assertEquals(8, last[0]);

        // Objects packed and sent as PACKED may be received as OBJECT.
        byte[] unit = new byte[256];
        int end = MPI.OBJECT.layout.packInto(new Object[] {"p"}, 0, 1, unit, 0);
        Object[] received = new Object[1];
        assertEquals(1, MPI.OBJECT.layout.unpack(MPI.PACKED.layout.pack(unit, 0, end), received, 0, 1));
        assertEquals("p", received[0]);
    }

    /** Child-first for this test's own classes, like a rank's application loader. */
    private static final class RankLoader extends ClassLoader implements AutoCloseable {
        RankLoader(ClassLoader parent) {
            super("rank", parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            // The enclosing class too: nest mates must share a loader.
            String outer = DatatypeObjectTest.class.getName();
            if (!name.equals(outer) && !name.startsWith(outer + "$")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded != null) {
                    return loaded;
                }
                String file = name.replace('.', '/') + ".class";
                try (InputStream in = getParent().getResourceAsStream(file)) {
                    if (in == null) {
                        throw new ClassNotFoundException(name);
                    }
                    byte[] bytes = in.readAllBytes();
                    return defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }

        @Override
        public void close() {
        }
    }
}
