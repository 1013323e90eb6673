package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.util.Set;

/**
 * Java serialization of MPI.OBJECT elements, and its safe reverse.
 *
 * <p>A message is bytes from another process, so deserialization admits only what an MPI program
 * plausibly sends: arrays, boxed primitives and strings, the common {@code java.util} collections,
 * {@code java.math} numbers and {@code java.time} values, and the application's own classes, that
 * is classes defined by the receiving thread's context class loader or one of its ancestors below
 * the platform loader (in mpirun's threads mode each rank has its own application loader, so that
 * is also where classes are resolved). Everything else, JDK internals and the usual gadget classes
 * included, is refused before it is instantiated; depth, reference count, array length and stream
 * size are bounded too.
 */
final class TypeObjects {
    /**
     * Deepest object nesting accepted. Default serialization of a linked structure nests once per
     * node, so this bounds the length of an application's own linked lists (java.util's
     * collections write their elements flat and are not affected); it stays well inside a
     * default thread stack.
     */
    public static final int MAX_DEPTH = 512;

    private static final Set<String> ALLOWED_JDK = Set.of(
            "java.lang.Boolean", "java.lang.Byte", "java.lang.Character", "java.lang.Short",
            "java.lang.Integer", "java.lang.Long", "java.lang.Float", "java.lang.Double",
            "java.lang.Number", "java.lang.String", "java.lang.Enum", "java.lang.StringBuilder",
            "java.lang.StringBuffer",
            // Only ever seen as element types of arrays: collections' readObject checks the size
            // of the Object[] or Map.Entry[] it is about to allocate through the filter.
            "java.lang.Object", "java.util.Map$Entry",
            "java.math.BigInteger", "java.math.BigDecimal",
            "java.util.ArrayList", "java.util.LinkedList", "java.util.Vector", "java.util.Stack",
            "java.util.ArrayDeque", "java.util.PriorityQueue",
            "java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.Hashtable",
            "java.util.IdentityHashMap", "java.util.EnumMap",
            "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet",
            "java.util.EnumSet$SerializationProxy", "java.util.RegularEnumSet", "java.util.JumboEnumSet",
            "java.util.Arrays$ArrayList", "java.util.CollSer",
            "java.util.AbstractMap$SimpleEntry", "java.util.AbstractMap$SimpleImmutableEntry",
            "java.util.BitSet", "java.util.UUID", "java.util.Date",
            "java.util.Comparators$NaturalOrderComparator", "java.lang.String$CaseInsensitiveComparator",
            // ConcurrentHashMap still writes the segments (and their locks) of its Java 7 form.
            "java.util.concurrent.ConcurrentHashMap", "java.util.concurrent.ConcurrentHashMap$Segment",
            "java.util.concurrent.locks.ReentrantLock", "java.util.concurrent.locks.ReentrantLock$Sync",
            "java.util.concurrent.locks.ReentrantLock$NonfairSync",
            "java.util.concurrent.locks.AbstractQueuedSynchronizer",
            "java.util.concurrent.locks.AbstractOwnableSynchronizer");

    private TypeObjects() {
    }

    /** {@code n} elements of {@code src} from {@code from} as one serialization stream. */
    static byte[] serialize(Object[] src, int from, int n) throws MPIException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 16 * n);
        int i = 0;
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            for (; i < n; i++) {
                out.writeObject(src[from + i]);
            }
        } catch (NotSerializableException e) {
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT element " + (from + i) + " (a "
                    + src[from + i].getClass().getName() + ") cannot be sent: " + e.getMessage()
                    + " does not implement java.io.Serializable", e);
        } catch (IOException e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT element " + (from + i)
                    + " could not be serialized: " + e, e);
        }
        return bytes.toByteArray();
    }

    /**
     * The {@code n} objects serialized in {@code data[pos, pos + len)}.
     *
     * @throws MPIException ERR_TYPE naming the class if a class is refused or not found, ERR_OTHER if the stream is damaged or exceeds a limit
     */
    static Object[] deserialize(byte[] data, int pos, int len, int n) throws MPIException {
        Object[] result = new Object[n];
        ClassLoader loader = applicationLoader();
        Guard guard = new Guard(loader, len);
        int i = 0;
        try (Input in = new Input(new ByteArrayInputStream(data, pos, len), loader)) {
            in.setObjectInputFilter(guard);
            for (; i < n; i++) {
                result[i] = in.readObject();
            }
        } catch (ClassNotFoundException e) {
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT element " + i + " is of class " + e.getMessage()
                    + ", which the receiving application's class loader cannot find", e);
        } catch (InvalidClassException e) {
            if (guard.refused != null) {
                throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT element " + i + " contains " + guard.refused, e);
            }
            throw new MPIException(MPI.ERR_TYPE, "MPI.OBJECT element " + i + " cannot be deserialized: " + e.getMessage(), e);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw new MPIException(MPI.ERR_OTHER, "MPI.OBJECT element " + i + " cannot be deserialized: " + e, e);
        }
        return result;
    }

    /** The loader the application's classes come from on this thread. */
    static ClassLoader applicationLoader() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : ClassLoader.getSystemClassLoader();
    }

    /** Resolves through the application's loader rather than the one that loaded dist. */
    private static final class Input extends ObjectInputStream {
        private final ClassLoader loader;

        Input(ByteArrayInputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                // initialize=false: a class that the filter then refuses never runs its static initializer.
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc); // primitive type descriptors such as "int"
            }
        }

        @Override
        protected Class<?> resolveProxyClass(String[] interfaces) throws InvalidClassException {
            throw new InvalidClassException("a dynamic proxy for " + String.join(", ", interfaces)
                    + ", which dist refuses to deserialize");
        }
    }

    /** The allow list and the limits; remembers what it refused so the error can name it. */
    private static final class Guard implements ObjectInputFilter {
        private final ClassLoader loader;
        private final long maxBytes;
        String refused;

        Guard(ClassLoader loader, long streamLength) {
            this.loader = loader;
            this.maxBytes = streamLength;
        }

        @Override
        public Status checkInput(FilterInfo info) {
            // Each element of an array or reference takes at least one byte of the stream, so the
            // stream's own length bounds them without capping legitimate large arrays.
            if (info.depth() > MAX_DEPTH) {
                return refuse("objects nested deeper than " + MAX_DEPTH + " levels");
            }
            if (info.references() > maxBytes || info.streamBytes() > maxBytes) {
                return refuse("more references or bytes than its " + maxBytes + "-byte stream can hold");
            }
            if (info.arrayLength() > maxBytes) {
                return refuse("an array of " + info.arrayLength() + " elements in a " + maxBytes + "-byte stream");
            }
            Class<?> cls = info.serialClass();
            if (cls == null) {
                return Status.UNDECIDED;
            }
            Class<?> element = cls;
            while (element.isArray()) {
                element = element.getComponentType();
            }
            if (element.isPrimitive() || allowed(element)) {
                return Status.ALLOWED;
            }
            return refuse("class " + cls.getTypeName() + ", which dist refuses to deserialize (only arrays, boxed"
                    + " primitives, String, common java.util collections, java.math and java.time values and"
                    + " the application's own classes are accepted)");
        }

        private Status refuse(String what) {
            if (refused == null) {
                refused = what;
            }
            return Status.REJECTED;
        }

        private boolean allowed(Class<?> cls) {
            String name = cls.getName();
            // Collections$ holds the empty, singleton, unmodifiable and synchronized wrappers, and
        // ImmutableCollections$ what List.of and Map.of resolve to (replacements are filtered too);
        // what they hold passes through this filter on its own.
        if (ALLOWED_JDK.contains(name) || name.startsWith("java.time.") || name.startsWith("java.util.Collections$")
                || name.startsWith("java.util.ImmutableCollections$")) {
                return true;
            }
            if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                    || name.startsWith("sun.") || name.startsWith("com.sun.")
                    || name.startsWith("dev.distvm.")) {
                return false;
            }
            ClassLoader definer = cls.getClassLoader();
            ClassLoader platform = ClassLoader.getPlatformClassLoader();
            if (definer == null || definer == platform) {
                return false;
            }
            for (ClassLoader l = loader; l != null && l != platform; l = l.getParent()) {
                if (l == definer) {
                    return true;
                }
            }
            return false;
        }
    }
}
