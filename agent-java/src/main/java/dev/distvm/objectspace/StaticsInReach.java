package dev.distvm.objectspace;

import dev.distvm.rewriter.ApplicationClasses;
import dev.distvm.rewriter.StaticReach;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps home a thread that would stop the run on a worker after doing part of its work: one whose
 * code uses the statics of a class that holds an object dist cannot share (a worker fetches a
 * class's statics whole, and one JVM runs a program that accumulates into a static {@code
 * AtomicLong} or {@code ConcurrentHashMap}), locks a value each node has its own of (a string, a
 * boxed value, an enum constant: {@link CopyMonitors} stops the run when a worker's thread locks
 * one), writes fields or array elements through reflection, a {@code VarHandle}, a field updater
 * or {@code Unsafe} (writes the rewriter's hooks do not see, so they would not reach other nodes:
 * a silent wrong answer), or stores an object of a JDK class dist cannot share into a field or an
 * array element (a thread that collects its results in an {@code ArrayList} and puts the list into
 * a shared array, or starts threads of its own and keeps them in one: the release that carries the
 * store stops the run). A store into an object only the thread itself sees keeps it home too: the
 * code does not say where the object goes, and home is where it is correct either way. What the
 * code reaches comes from the class files ({@link StaticReach}), found once per method a thread
 * starts from; the statics are checked at every start, one level deep (the value itself), and for
 * a class not initialized yet by the field's declared type (a JDK class no shareable value is an
 * instance of). Narrower than the code's reach: an overriding method that only a subclass declares
 * is not followed, nor what a static's value reaches, nor a lock or stored value whose type the
 * class file does not show ({@link StaticReach}); a thread those take to such an object still
 * stops the run, naming it.
 */
final class StaticsInReach {
    private static final int METHOD_LIMIT = 4_000;
    private static final MethodHandle SHOULD_BE_INITIALIZED = InternalUnsafe.method("shouldBeInitialized",
            MethodType.methodType(boolean.class, Class.class));

    /** A thread's entry method; equals and hashCode written out as {@link StaticReach.Field}'s say why. */
    private record Entry(ClassLoader loader, String owner, String name, String descriptor) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Entry entry && loader == entry.loader && owner.equals(entry.owner)
                    && name.equals(entry.name) && descriptor.equals(entry.descriptor);
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(loader) * 31 + owner.hashCode()) * 31 + name.hashCode()) * 31
                    + descriptor.hashCode();
        }
    }

    /**
     * What the code of one entry method reaches: the classes whose statics it uses, their fields,
     * the by-value types it locks, the JDK types it stores into fields and array elements.
     */
    private record Reached(List<Class<?>> owners, List<Field> statics, List<Class<?>> lockedValues, List<Stored> storedJdkObjects,
            List<WriteOutOfSight> writesOutOfSight) {}

    /** A JDK type the code stores into a field or array element, and the first method seen doing it. */
    private record Stored(Class<?> type, String method) {}

    /** A call that writes where the hooks do not see ({@code Owner.name}), its class, and the first method seen making it. */
    private record WriteOutOfSight(Class<?> writer, String call, String method) {}

    private final Map<Entry, Reached> byEntry = new ConcurrentHashMap<>();

    /**
     * Throws {@link UnsharableException} when the code {@code root} starts uses a static field
     * holding what cannot be shared; else returns the classes whose statics that code uses and the
     * home has initialized: a worker would fetch them at the thread's first use, so they may travel
     * with its start, a snapshot taken when the start's refresh is. One not initialized yet stays
     * behind: fetching it would run its initializer before the program did.
     */
    List<Class<?>> refuseUnsharable(Object root) {
        Entry entry = entryOf(root);
        if (entry == null) {
            return List.of();
        }
        Reached reached = byEntry.computeIfAbsent(entry, StaticsInReach::reached);
        if (!reached.lockedValues().isEmpty()) {
            throw new UnsharableException(reached.lockedValues().get(0), "the thread's code locks one, and each node has"
                    + " its own (it travels by value), so the lock would not exclude threads of other nodes");
        }
        if (!reached.writesOutOfSight().isEmpty()) {
            WriteOutOfSight write = reached.writesOutOfSight().get(0);
            throw new UnsharableException(write.writer(), "the thread's code writes through one (" + write.call() + ", in "
                    + write.method() + "), which dist does not see, so the write would not reach other nodes");
        }
        for (Class<?> owner : reached.owners()) {
            PerNodeState.refuseStaticsOf(owner);
        }
        for (Field field : reached.statics()) {
            Class<?> owner = field.getDeclaringClass();
            if (isInitialized(owner)) {
                Object value = valueOf(field);
                PerNodeState.refuse(value);
                if (value != null && !WireWriter.travelsByValue(value) && !Lambdas.isLambda(value) && !ImmutableCollections.is(value)
                        && !WireWriter.isHolder(value)) {
                    throw refusal(value.getClass(), field);
                }
            } else if (canOnlyHoldUnsharable(field.getType())) {
                throw refusal(field.getType(), field);
            }
        }
        // After the statics' values: an initialized class's field names the value it holds.
        if (!reached.storedJdkObjects().isEmpty()) {
            Stored stored = reached.storedJdkObjects().get(0);
            String initializer = ".<clinit>";
            if (stored.method().endsWith(initializer)) {
                String owner = stored.method().substring(0, stored.method().length() - initializer.length());
                throw new UnsharableException(stored.type(), "it is a JDK class, and the thread's code uses the statics of "
                        + owner + ", whose class initializer stores one there");
            }
            throw new UnsharableException(stored.type(), "it is a JDK class, and the thread's code stores one into a field"
                    + " or an array element (in " + stored.method() + "), where other threads may find it");
        }
        List<Class<?>> initialized = new ArrayList<>();
        for (Class<?> owner : reached.owners()) {
            if (!owner.isEnum() && !owner.isInterface() && isInitialized(owner)) {
                initialized.add(owner);
            }
        }
        return initialized;
    }

    private static UnsharableException refusal(Class<?> type, Field field) {
        return new UnsharableException(type, "it is a JDK class, and the thread's code uses the statics of "
                + field.getDeclaringClass().getName() + ", whose field " + field.getName() + " holds one");
    }

    /** The method the thread starts from: a Thread subclass's or a task object's run(), a lambda's implementation. */
    private static Entry entryOf(Object root) {
        ClassLoader loader = root.getClass().getClassLoader();
        if (loader == null) {
            return null;
        }
        if (Lambdas.isLambda(root)) {
            SerializedLambda form = Lambdas.serializedForm(root);
            return new Entry(loader, form.getImplClass(), form.getImplMethodName(), form.getImplMethodSignature());
        }
        return new Entry(loader, root.getClass().getName().replace('.', '/'), "run", "()V");
    }

    /**
     * Every static field that travels with the statics of a class whose statics the code uses (a
     * worker fetches a class's statics whole), and the locked types each node has its own value of.
     */
    private static Reached reached(Entry entry) {
        StaticReach.Reach reach = new StaticReach(name -> applicationClassFile(entry.loader(), name))
                .from(entry.owner(), entry.name(), entry.descriptor(), METHOD_LIMIT);
        Set<Class<?>> owners = new LinkedHashSet<>();
        for (StaticReach.Field named : reach.fields()) {
            Class<?> owner = ownerOf(entry.loader(), named);
            if (owner != null) {
                owners.add(owner);
            }
        }
        List<Field> statics = new ArrayList<>();
        for (Class<?> owner : owners) {
            for (Field field : Slots.staticFields(owner)) {
                if (!field.getType().isPrimitive()) {
                    field.setAccessible(true);
                    statics.add(field);
                }
            }
        }
        List<Class<?>> lockedValues = new ArrayList<>();
        for (String descriptor : reach.lockedTypes()) {
            Class<?> type = typeOf(entry.loader(), descriptor);
            if (type != null && CopyMonitors.eachNodeHasItsOwn(type)) {
                lockedValues.add(type);
            }
        }
        List<Stored> storedJdkObjects = new ArrayList<>();
        reach.storedTypes().forEach((descriptor, method) -> {
            Class<?> type = typeOf(entry.loader(), descriptor);
            if (type != null && canOnlyHoldUnsharable(type)) {
                storedJdkObjects.add(new Stored(type, method));
            }
        });
        List<WriteOutOfSight> writesOutOfSight = new ArrayList<>();
        reach.reflectiveWrites().forEach((call, method) -> {
            Class<?> writer = jdkClass(call.substring(0, call.lastIndexOf('.')));
            if (writer != null) {
                writesOutOfSight.add(new WriteOutOfSight(writer, call, method));
            }
        });
        return new Reached(List.copyOf(owners), List.copyOf(statics), List.copyOf(lockedValues), List.copyOf(storedJdkObjects),
                List.copyOf(writesOutOfSight));
    }

    /** A JDK class by name; null when this JVM lacks it (then no code here can call it either). */
    private static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name, false, ClassLoader.getPlatformClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static Class<?> typeOf(ClassLoader loader, String descriptor) {
        if (!descriptor.startsWith("L")) {
            return null;
        }
        try {
            return Class.forName(descriptor.substring(1, descriptor.length() - 1).replace('/', '.'), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static byte[] applicationClassFile(ClassLoader loader, String internalName) {
        if (!ApplicationClasses.isApplicationClass(internalName, false)) {
            return null;
        }
        URL url = loader.getResource(internalName + ".class");
        if (url == null || url.getProtocol().equals("jrt")) {
            return null;
        }
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("dist could not read " + url + ": " + e.getMessage(), e);
        }
    }

    /** The application class that declares the static field the code names (its class, a superclass or an interface); null if none. */
    private static Class<?> ownerOf(ClassLoader loader, StaticReach.Field named) {
        if (!ApplicationClasses.isApplicationClass(named.owner(), false) || named.name().startsWith("$dist$")) {
            return null;
        }
        try {
            Field field = find(Class.forName(named.owner().replace('/', '.'), false, loader), named.name());
            if (field == null || !Modifier.isStatic(field.getModifiers()) || Slots.isJdk(field.getDeclaringClass())) {
                return null;
            }
            return field.getDeclaringClass();
        } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
            return null; // a class the thread could not load either: it fails there as on one JVM
        }
    }

    private static Field find(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    return field;
                }
            }
            for (Class<?> inherited : c.getInterfaces()) {
                Field field = find(inherited, name);
                if (field != null) {
                    return field;
                }
            }
        }
        return null;
    }

    private static Object valueOf(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            return null;
        }
    }

    /**
     * A JDK class that no value travelling by value is an instance of, and no application object
     * either (not an interface, nor a class without state an application class may extend, such as
     * {@code Record} or {@code Number}).
     */
    private static boolean canOnlyHoldUnsharable(Class<?> type) {
        // Object too has no instance fields and is not final
        if (type.isArray() || type.isInterface() || !Slots.isJdk(type)
                || !Modifier.isFinal(type.getModifiers()) && Slots.withoutInstanceFields(type) || type == ThreadLocal.class
                || Enum.class.isAssignableFrom(type) || ForwardedCalls.isShared(type)
                || Throwable.class.isAssignableFrom(type)) {
            return false;
        }
        for (Class<?> byValue : WireWriter.BY_VALUE) { // a declared type one of them fits may hold a shareable value
            if (type.isAssignableFrom(byValue)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code owner}'s initializer has run, asked without running it (a reflective read of
     * its field would): {@code jdk.internal.misc.Unsafe}, which the agent exports to dist.
     */
    private static boolean isInitialized(Class<?> owner) {
        if (SHOULD_BE_INITIALIZED == null) {
            return false; // not exported to dist: every field is judged by its declared type
        }
        try {
            return !(boolean) SHOULD_BE_INITIALIZED.invokeExact(owner);
        } catch (Throwable e) {
            return false;
        }
    }

}
