package dev.distvm.rewriter;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The tests' stand-in for the runtime's hook class, with every hook of {@link RuntimeHooks}: records
 * each call and then does what a single JVM does. The object-space hooks record in
 * {@link ObjectSpaceCalls}, the others here.
 */
public final class RecordingHooks {
    static final String OWNER = RecordingHooks.class.getName().replace('.', '/');
    static final List<String> calls = new CopyOnWriteArrayList<>();
    /**
     * The store, passed and aliased hooks' calls, apart: every array store of a subject makes one. A
     * worker's read and passing hooks record in {@link #calls}, in order with the subject's notes.
     */
    static final List<String> arrayCalls = new CopyOnWriteArrayList<>();
    /** An array on a worker whose elements are not here yet, and the home's: the worker's array hooks fault from one into the other. */
    private static volatile Object absent;
    private static volatile Object home;

    private RecordingHooks() {}

    static void reset() {
        calls.clear();
        arrayCalls.clear();
        ObjectSpaceCalls.reset();
        absent = null;
        home = null;
        callingHome = null;
        homeAnswer = null;
    }

    /** Makes {@code onWorker}'s elements arrive from {@code atHome} only when a hook asks for them. */
    static void absentUntilAskedFor(Object onWorker, Object atHome) {
        home = atHome;
        absent = onWorker;
    }

    /** The recorded calls of the given hooks, in order. */
    static List<String> callsOf(String... hooks) {
        List<String> selected = new ArrayList<>();
        for (String call : calls) {
            if (Stream.of(hooks).anyMatch(hook -> call.startsWith(hook + "("))) {
                selected.add(call);
            }
        }
        return selected;
    }

    static String describe(Object o) {
        if (o instanceof Class<?> type) {
            // getSimpleName() would fail: the declaring class is in another loader than the nested one.
            return "class " + type.getName().substring(type.getName().lastIndexOf('$') + 1);
        }
        if (o instanceof Thread thread) {
            return thread.getName();
        }
        if (o instanceof Runtime) {
            return "runtime";
        }
        return String.valueOf(o);
    }

    /** What a test subject says of itself, in order with the hook calls. */
    public static void note(String what) {
        calls.add(what);
    }

    private static void record(String hook, Object... arguments) {
        calls.add(Stream.of(arguments).map(RecordingHooks::describe).collect(Collectors.joining(", ", hook + "(", ")")));
    }

    public static void arrayStored(Object array, int index) {
        arrayCalls.add("store " + array.getClass().getComponentType().getSimpleName() + "[" + index + "]");
    }

    public static void arrayPassed(Object array) {
        arrayCalls.add("passed " + (array == null ? "null" : array.getClass().getSimpleName()));
    }

    public static void arrayAliased(Object array) {
        arrayCalls.add("aliased " + (array == null ? "null" : array.getClass().getSimpleName()));
    }

    /** Records as {@code read int[] 3}. */
    public static void arrayRead(Object array, int index) {
        calls.add("read " + typeOf(array) + " " + index);
        if (array != null && array == absent && index >= 0 && index < Array.getLength(array)) {
            System.arraycopy(home, index, array, index, 1);
        }
    }

    /** Records with the elements the array holds when asked, as {@code passing int[] [0, 0]}: a JDK call has not run yet. */
    public static void arrayPassing(Object array) {
        calls.add("passing " + typeOf(array) + " " + elementsOf(array));
        if (array != null && array == absent) {
            System.arraycopy(home, 0, array, 0, Array.getLength(array));
        }
    }

    private static String typeOf(Object array) {
        return array == null ? "null" : array.getClass().getSimpleName();
    }

    private static String elementsOf(Object array) {
        StringJoiner elements = new StringJoiner(", ", "[", "]");
        for (int i = 0; array != null && i < Array.getLength(array); i++) {
            elements.add(String.valueOf(Array.get(array, i)));
        }
        return elements.toString();
    }

    public static void written(Object target) {
        ObjectSpaceCalls.record("written", target);
    }

    public static void written(Object target, Object meta) {
        if (meta == null) {
            throw new AssertionError("written with no meta: the put helper calls the hook only for a shared object");
        }
        ObjectSpaceCalls.record("written", target);
    }

    public static void staticFault(Class<?> type) {
        ObjectSpaceCalls.record("staticFault", type);
    }

    public static boolean runClassInitializer(Class<?> type) {
        ObjectSpaceCalls.record("runClassInitializer", type);
        return ObjectSpaceCalls.runClassInitializers;
    }

    public static void beforeVolatileRead(Object target) {
        ObjectSpaceCalls.record("beforeVolatileRead", target);
    }

    public static void afterVolatileRead() {
        ObjectSpaceCalls.record("afterVolatileRead", null);
    }

    /** Decides true, which the rewritten helper must hand to {@link #afterVolatileWrite}. */
    public static boolean beforeVolatileWrite(Object target, String owner, String field) {
        ObjectSpaceCalls.record("beforeVolatileWrite", target, ObjectSpaceCalls.simpleName(owner) + "." + field);
        return true;
    }

    public static void afterVolatileWrite(Object target, boolean decided, String owner, String field) {
        ObjectSpaceCalls.record(decided ? "afterVolatileWrite" : "afterVolatileWrite without the decision", target,
                ObjectSpaceCalls.simpleName(owner) + "." + field);
    }

    public static void monitorEntered(Object lock) {
        record("monitorEntered", lock, Thread.holdsLock(lock) ? "held" : "not held");
    }

    /** The object whose waiting synchronized methods run "at the home" (see {@link #callHome}), and what such a call returns. */
    private static volatile Object callingHome;
    private static volatile Object homeAnswer;

    /** Public: called by subjects, which another loader defines. */
    public static void callHomeFor(Object self, Object answer) {
        callingHome = self;
        homeAnswer = answer;
    }

    public static boolean callsHome(Object self) {
        return self == callingHome;
    }

    public static Object callHome(Object self, String key, Object[] arguments) {
        record("callHome", self, key, java.util.Arrays.toString(arguments));
        return homeAnswer;
    }

    public static void monitorExit(Object lock) {
        record("monitorExit", lock, Thread.holdsLock(lock) ? "held" : "not held");
    }

    public static void wait(Object lock) throws InterruptedException {
        record("wait", lock);
        lock.wait();
    }

    public static void wait(Object lock, long millis) throws InterruptedException {
        record("wait", lock, millis);
        lock.wait(millis);
    }

    public static void wait(Object lock, long millis, int nanos) throws InterruptedException {
        record("wait", lock, millis, nanos);
        lock.wait(millis, nanos);
    }

    public static void notify(Object lock) {
        record("notify", lock);
        lock.notify();
    }

    public static void notifyAll(Object lock) {
        record("notifyAll", lock);
        lock.notifyAll();
    }

    public static void start(Thread thread) {
        record("start", thread);
        thread.start();
    }

    public static void join(Thread thread) throws InterruptedException {
        record("join", thread);
        thread.join();
    }

    public static void join(Thread thread, long millis) throws InterruptedException {
        record("join", thread, millis);
        thread.join(millis);
    }

    public static void join(Thread thread, long millis, int nanos) throws InterruptedException {
        record("join", thread, millis, nanos);
        thread.join(millis, nanos);
    }

    public static Thread.State threadState(Thread thread) {
        record("threadState", thread);
        return thread.getState();
    }

    public static boolean isAlive(Thread thread) {
        record("isAlive", thread);
        return thread.isAlive();
    }

    @SuppressWarnings("deprecation") // threadId() is Java 19+; the tests run on 17
    public static long threadId(Thread thread) {
        record("threadId", thread);
        return thread.getId();
    }

    public static void interrupt(Thread thread) {
        record("interrupt", thread);
        thread.interrupt();
    }

    public static boolean isInterrupted(Thread thread) {
        record("isInterrupted", thread);
        return thread.isInterrupted();
    }

    public static boolean interrupted() {
        record("interrupted");
        return Thread.interrupted();
    }

    public static Thread currentThread() {
        record("currentThread");
        return Thread.currentThread();
    }

    public static void sleep(long millis) throws InterruptedException {
        record("sleep", millis);
        Thread.sleep(millis);
    }

    public static void sleep(long millis, int nanos) throws InterruptedException {
        record("sleep", millis, nanos);
        Thread.sleep(millis, nanos);
    }

    /**
     * An injected {@code hashCode()}'s and a {@code System.identityHashCode} call's: recorded as an
     * object-space call, since describing the object here would call its {@code hashCode()} again.
     */
    public static int identityHashCode(Object o) {
        ObjectSpaceCalls.record("identityHashCode", o);
        return System.identityHashCode(o);
    }

    /** A {@code hashCode()} called as {@code Object}'s: recorded as an object-space call, like the identity hash. */
    public static int objectHashCode(Object o) {
        ObjectSpaceCalls.record("objectHashCode", o);
        return o.hashCode();
    }

    public static void nativeMethod(Class<?> owner, String name) {
        record("nativeMethod", owner, name);
    }

    public static void exit(int status) {
        record("exit", status);
    }

    public static void exit(Runtime runtime, int status) {
        record("exit", runtime, status);
    }

    public static void halt(Runtime runtime, int status) {
        record("halt", runtime, status);
    }
}
