package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * JDK synchronizers shared by running their calls where they live. A {@code CountDownLatch} or a
 * {@code CyclicBarrier} is all behaviour: its state is the JDK's private queue of waiting threads
 * and a count, which no twin could merge and no thread of another node could wait in. So the
 * home's instance is the only one that works, and a worker's copy is an instance of a subclass of
 * dist's ({@link LatchCopy}, {@link BarrierCopy}) that holds nothing and overrides every public
 * method (neither class has a final one; {@code ForwardedCallsTest} checks that on each JDK) to
 * run the call on the home's instance, on a thread of the home's ({@link ForwardedCallsAtHome}).
 * The worker's release goes first and the answer carries a refresh (see
 * {@link WorkerRuntime#forwardedCall}), so what a thread wrote before a {@code countDown} or an
 * {@code await} is seen by the threads that pass the latch or barrier after it, on any node, as
 * the JDK promises on one JVM. JDK code that calls the copy (printing it) calls the same
 * overrides. Only an instance made at the home is shared: one made on a worker lives there, so a
 * release that would share it stops the run with the reason ({@link #refuseFromWorker}).
 *
 * <p>Like arrays and plain {@code Object}s these carry no {@code $dist$meta}: the registry knows
 * which are shared ({@link InjectedState#hasMeta}). A copy's {@code getClass()} is dist's subclass.
 */
final class ForwardedCalls {
    private static final Map<Class<?>, Class<?>> COPY_CLASS = Map.of(CountDownLatch.class, LatchCopy.class,
            CyclicBarrier.class, BarrierCopy.class);
    /** What a copy holds of the JDK class's state: nothing. */
    static final Slots NO_SLOTS = new NoSlots();
    /** Per JDK class shared this way, its public instance methods by {@link #key}: what a worker may ask to run. */
    private static final ClassValue<Map<String, Method>> CALLABLE = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            Map<String, Method> methods = new HashMap<>();
            for (Method method : type.getMethods()) {
                if (!Modifier.isStatic(method.getModifiers()) && method.getDeclaringClass() == type
                        || method.getName().equals("toString") && method.getParameterCount() == 0) {
                    methods.put(key(method), method);
                }
            }
            return methods;
        }
    };

    private ForwardedCalls() {}

    /** Whether instances of {@code type} are shared by forwarding their calls: the JDK class at the home, the copy class on a worker. */
    static boolean isShared(Class<?> type) {
        // Comparisons, not a map lookup: asked by InjectedState.hasMeta, on a hash code's path
        return type == CountDownLatch.class || type == CyclicBarrier.class || type == LatchCopy.class
                || type == BarrierCopy.class;
    }

    /** The class a copy of a {@code type} instance is made of, where it arrives. */
    static Class<?> copyClass(Class<?> type) {
        return COPY_CLASS.getOrDefault(type, type);
    }

    /** A worker's own synchronizer cannot be shared: its waiters and its count are there, the home would get an empty one. */
    static void refuseFromWorker(Object holder) {
        if (isShared(holder.getClass())) {
            throw new UnsharableException(holder.getClass(), "it was made on a worker, where its waiting threads"
                    + " and its count live; dist shares one made by a thread at the home (before the threads that use it"
                    + " start, as programs usually do), or run with --nodes 1");
        }
    }

    /**
     * The method of a forwarded JDK class that {@code key} names, or for a {@code Thread} the
     * question of {@link ThreadsElsewhere.AtHome}, or a program's method that waits
     * ({@link HomeCalls}); refuses anything else.
     */
    static Method method(Class<?> type, String key) {
        if (HomeCalls.isHomeCall(key)) {
            return HomeCalls.method(type, key);
        }
        Class<?> callable = Thread.class.isAssignableFrom(type) ? ThreadsElsewhere.AtHome.class
                : COPY_CLASS.containsKey(type) ? type : null;
        Method method = callable != null ? CALLABLE.get(callable).get(key) : null;
        if (method == null) {
            throw new IllegalArgumentException("forwarded call: " + type.getName() + " has no method " + key
                    + " that a worker may call");
        }
        return method;
    }

    /** A method's name and parameter and return types, as the JVM spells them. */
    static String key(Method method) {
        StringBuilder key = new StringBuilder(method.getName()).append('(');
        for (Class<?> parameter : method.getParameterTypes()) {
            key.append(parameter.descriptorString());
        }
        return key.append(')').append(method.getReturnType().descriptorString()).toString();
    }

    /** What a forwarded call runs on at the home: the master, or for a {@code Thread} its questions. */
    static Object target(Object master) {
        return master instanceof Thread thread ? new ThreadsElsewhere.AtHome(thread) : master;
    }

    /** The arguments, in the order of the method's parameters; only the types its methods take. */
    static void writeArguments(WireBuffer out, Method method, Object[] arguments) {
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            writeValue(out, types[i], arguments[i]);
        }
    }

    static Object[] readArguments(ByteBuffer in, Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            arguments[i] = readValue(in, types[i]);
        }
        return arguments;
    }

    static void writeValue(WireBuffer out, Class<?> type, Object value) {
        if (type == void.class) {
            return;
        } else if (type == int.class) {
            out.appendInt((Integer) value);
        } else if (type == long.class) {
            out.appendLong((Long) value);
        } else if (type == boolean.class) {
            out.appendBoolean((Boolean) value);
        } else if (type == byte.class || type == short.class || type == char.class) {
            out.appendInt(type == char.class ? (Character) value : ((Number) value).intValue());
        } else if (type == float.class) {
            out.appendInt(Float.floatToRawIntBits((Float) value));
        } else if (type == double.class) {
            out.appendLong(Double.doubleToRawLongBits((Double) value));
        } else if (type == TimeUnit.class || type == String.class) {
            out.appendBoolean(value != null);
            if (value != null) {
                out.appendString(type == TimeUnit.class ? ((TimeUnit) value).name() : (String) value);
            }
        } else {
            throw new IllegalArgumentException("forwarded call: a value of type " + type.getName());
        }
    }

    static Object readValue(ByteBuffer in, Class<?> type) {
        if (type == void.class) {
            return null;
        } else if (type == int.class) {
            return in.getInt();
        } else if (type == long.class) {
            return in.getLong();
        } else if (type == boolean.class) {
            return in.get() != 0;
        } else if (type == byte.class) {
            return (byte) in.getInt();
        } else if (type == short.class) {
            return (short) in.getInt();
        } else if (type == char.class) {
            return (char) in.getInt();
        } else if (type == float.class) {
            return Float.intBitsToFloat(in.getInt());
        } else if (type == double.class) {
            return Double.longBitsToDouble(in.getLong());
        } else if (type == TimeUnit.class || type == String.class) {
            if (in.get() == 0) {
                return null;
            }
            String text = WireReader.string(in);
            return type == TimeUnit.class ? TimeUnit.valueOf(text) : text;
        }
        throw new IllegalArgumentException("forwarded call: a value of type " + type.getName());
    }

    /**
     * What a forwarded call returned, or what it threw ({@code thrown} not null), and in
     * {@code flags} whether it waited at the home and what became of an interrupt the worker passed on.
     */
    record Outcome(Object result, Throwable thrown, int flags) {
        /** The call waited on a monitor at the home. */
        static final int WAITED = 1;
        /** An interrupt the worker passed on reached the home's thread while the call ran. */
        static final int INTERRUPT_REACHED = 2;
        /** That thread was still interrupted when the call returned: the call did not consume the interrupt. */
        static final int INTERRUPT_PENDING = 4;

        boolean waited() {
            return (flags & WAITED) != 0;
        }

        /**
         * Whether the calling thread is to be interrupted after the call: an interrupt it passed on
         * ({@code passedOn}) came after the call ended, or the home's thread was still interrupted
         * when the call returned (the call did not consume the interrupt, a wait that threw
         * {@code InterruptedException} having consumed it, caught or not; or the method interrupted
         * its own thread, as {@code catch} blocks do to keep an interrupt pending).
         */
        boolean interruptsCaller(boolean passedOn) {
            return passedOn && (flags & INTERRUPT_REACHED) == 0 || (flags & INTERRUPT_PENDING) != 0;
        }

        /** The answer's part before its refresh: the exception, or the value as the method's return type says. */
        void write(WireBuffer out, Method method, ClassLoader programLoader) {
            out.appendInt(flags);
            out.appendBoolean(thrown != null);
            if (thrown != null) {
                UncaughtExceptions.write(thrown, out, programLoader);
            } else {
                writeValue(out, method.getReturnType(), result);
            }
        }

        static Outcome read(ByteBuffer in, Method method, ClassLoader loader) {
            int flags = in.getInt();
            return in.get() != 0 ? new Outcome(null, UncaughtExceptions.read(in, loader), flags)
                    : new Outcome(readValue(in, method.getReturnType()), null, flags);
        }
    }

    /** Runs the call at the home; what it throws, checked or not, reaches the caller as the JDK's method would throw it. */
    private static Object call(Object copy, String key, Object... arguments) {
        try {
            return Hooks.forwardedCall(copy, method(copy.getClass().getSuperclass(), key), arguments);
        } catch (Throwable thrown) {
            throw ForwardedCalls.<RuntimeException>unchecked(thrown);
        }
    }

    /** Throws {@code thrown} as it is: the caller declares what the home's method declares, which is all it can throw. */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> T unchecked(Throwable thrown) throws T {
        throw (T) thrown;
    }

    /** A worker's {@code CountDownLatch}: every call runs on the home's. Made without its constructor. */
    static final class LatchCopy extends CountDownLatch {
        private LatchCopy() {
            super(0);
        }

        @Override
        public void await() throws InterruptedException {
            call(this, "await()V");
        }

        @Override
        public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
            return (Boolean) call(this, "await(JLjava/util/concurrent/TimeUnit;)Z", timeout, unit);
        }

        @Override
        public void countDown() {
            call(this, "countDown()V");
        }

        @Override
        public long getCount() {
            return (Long) call(this, "getCount()J");
        }

        @Override
        public String toString() {
            return (String) call(this, "toString()Ljava/lang/String;");
        }

        @Override
        public int hashCode() {
            return Hooks.identityHashCode(this);
        }
    }

    /** A worker's {@code CyclicBarrier}: every call runs on the home's, its barrier action there too. Made without its constructor. */
    static final class BarrierCopy extends CyclicBarrier {
        private BarrierCopy() {
            super(1);
        }

        @Override
        public int getParties() {
            return (Integer) call(this, "getParties()I");
        }

        @Override
        public int await() throws InterruptedException, BrokenBarrierException {
            return (Integer) call(this, "await()I");
        }

        @Override
        public int await(long timeout, TimeUnit unit) throws InterruptedException, BrokenBarrierException, TimeoutException {
            return (Integer) call(this, "await(JLjava/util/concurrent/TimeUnit;)I", timeout, unit);
        }

        @Override
        public boolean isBroken() {
            return (Boolean) call(this, "isBroken()Z");
        }

        @Override
        public void reset() {
            call(this, "reset()V");
        }

        @Override
        public int getNumberWaiting() {
            return (Integer) call(this, "getNumberWaiting()I");
        }

        @Override
        public String toString() {
            return (String) call(this, "toString()Ljava/lang/String;");
        }

        @Override
        public int hashCode() {
            return Hooks.identityHashCode(this);
        }
    }

    /** No slots: the state stays in the home's instance. */
    private static final class NoSlots extends Slots {
        @Override
        int count(Object holder) {
            return 0;
        }

        @Override
        Object get(Object holder, int slot) {
            throw new IndexOutOfBoundsException(slot);
        }

        @Override
        void set(Object holder, int slot, Object value) {
            throw new IndexOutOfBoundsException(slot);
        }

        @Override
        boolean compareAndSet(Object holder, int slot, Object expected, Object update) {
            throw new IndexOutOfBoundsException(slot);
        }
    }
}
