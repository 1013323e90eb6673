package dev.distvm.rewriter;

import org.objectweb.asm.commons.Method;

/**
 * The contract between rewritten code and the runtime: every static method the rewriter makes
 * application code call, declared once, with its exact name and descriptor. The runtime's hook
 * class implements each as {@code public static}; agent-java's {@code HookContractTest} checks that
 * it does, so a hook the runtime lacks fails the build instead of a run. Visitors emit these through
 * {@link HookCalls}, never as strings of their own.
 */
public final class RuntimeHooks {
    /** Internal name of the runtime's hook class: the one place it is written. */
    public static final String OWNER = "dev/distvm/objectspace/Hooks";
    /**
     * The prefix of the private method that holds a synchronized method's body behind its wrapper
     * (SynchronizedMethodRewriter): the runtime calls the body of a method that runs at the home.
     */
    public static final String SYNCHRONIZED_BODY_PREFIX = "$dist$sync$";

    // ---- the object space: field accesses, class initializers, identity hashes ----
    /** After a write to a shared class's statics (or, given an object, to that object): what a release must look at. */
    public static final Method WRITTEN = Method.getMethod("void written (Object)");
    /**
     * After a write to a shared object, with its meta (the put helper read it to see that the object
     * is shared): the runtime needs no look-up of the field.
     */
    public static final Method WRITTEN_WITH_META = Method.getMethod("void written (Object, Object)");
    /** Before a static access whose class's statics are not valid here. */
    public static final Method STATIC_FAULT = Method.getMethod("void staticFault (Class)");
    /** Before a class initializer: false when the statics come from the home instead. */
    public static final Method RUN_CLASS_INITIALIZER = Method.getMethod("boolean runClassInitializer (Class)");
    public static final Method BEFORE_VOLATILE_READ = Method.getMethod("void beforeVolatileRead (Object)");
    public static final Method AFTER_VOLATILE_READ = Method.getMethod("void afterVolatileRead ()");
    public static final Method BEFORE_VOLATILE_WRITE = Method.getMethod("boolean beforeVolatileWrite (Object, String, String)");
    public static final Method AFTER_VOLATILE_WRITE = Method.getMethod("void afterVolatileWrite (Object, boolean, String, String)");
    /** The injected {@code hashCode()}'s, and every {@code System.identityHashCode}'s: equal on every node. */
    public static final Method IDENTITY_HASH_CODE = Method.getMethod("int identityHashCode (Object)");
    /** Every {@code hashCode()} called as {@code Object}'s: an array's or a plain {@code Object}'s is its identity hash. */
    public static final Method OBJECT_HASH_CODE = Method.getMethod("int objectHashCode (Object)");

    // ---- array stores and arrays handed to JDK code (ArrayStoreRewriter, ArrayPassingRewriter) ----
    /** After an array element store, the application's own instruction: marks the element's chunk written if the array is shared. */
    public static final Method ARRAY_STORED = Method.getMethod("void arrayStored (Object, int)");
    /** After a JDK method that was handed the array returned: it may have written any element. */
    public static final Method ARRAY_PASSED = Method.getMethod("void arrayPassed (Object)");
    /** The array was handed to JDK code that keeps it and may write it later (a buffer, a list view). */
    public static final Method ARRAY_ALIASED = Method.getMethod("void arrayAliased (Object)");

    // ---- array reads on a worker, whose chunks may not be here yet (ArrayReadRewriter) ----
    /** Before a primitive array element is read: faults the element's chunk in if the home has not sent it. */
    public static final Method ARRAY_READ = Method.getMethod("void arrayRead (Object, int)");
    /** Before JDK code is handed the array (or, for an array of arrays, the arrays in it): every chunk not here yet is faulted in. */
    public static final Method ARRAY_PASSING = Method.getMethod("void arrayPassing (Object)");

    // ---- native methods and monitors ----
    /** Before a native method of an application class runs: its native state is where its class was initialized. */
    public static final Method NATIVE_METHOD = Method.getMethod("void nativeMethod (Class, String)");
    /** Right after a {@code monitorenter}, holding the monitor. */
    public static final Method MONITOR_ENTERED = Method.getMethod("void monitorEntered (Object)");
    /** Right after a {@code monitorexit}, no longer holding it. */
    public static final Method MONITOR_EXIT = Method.getMethod("void monitorExit (Object)");
    /** At the start of a synchronized method that waits: whether this call is to run at the object's home (HomeCallShape). */
    public static final Method CALLS_HOME = Method.getMethod("boolean callsHome (Object)");
    /** Runs the call at the object's home: the object, the method's key, the arguments boxed; returns the result boxed. */
    public static final Method CALL_HOME = Method.getMethod("Object callHome (Object, String, Object[])");

    // ---- calls replaced by a hook taking the receiver first (CallSiteRewriter) ----
    public static final Method WAIT = Method.getMethod("void wait (Object)");
    public static final Method WAIT_MILLIS = Method.getMethod("void wait (Object, long)");
    public static final Method WAIT_MILLIS_NANOS = Method.getMethod("void wait (Object, long, int)");
    public static final Method NOTIFY = Method.getMethod("void notify (Object)");
    public static final Method NOTIFY_ALL = Method.getMethod("void notifyAll (Object)");
    public static final Method START = Method.getMethod("void start (Thread)");
    public static final Method JOIN = Method.getMethod("void join (Thread)");
    public static final Method JOIN_MILLIS = Method.getMethod("void join (Thread, long)");
    public static final Method JOIN_MILLIS_NANOS = Method.getMethod("void join (Thread, long, int)");
    public static final Method IS_ALIVE = Method.getMethod("boolean isAlive (Thread)");
    public static final Method THREAD_STATE = Method.getMethod("Thread$State threadState (Thread)");
    public static final Method STACK_TRACE = Method.getMethod("StackTraceElement[] stackTrace (Thread)");
    public static final Method THREAD_ID = Method.getMethod("long threadId (Thread)");
    public static final Method INTERRUPT = Method.getMethod("void interrupt (Thread)");
    public static final Method IS_INTERRUPTED = Method.getMethod("boolean isInterrupted (Thread)");
    public static final Method INTERRUPTED = Method.getMethod("boolean interrupted ()");
    public static final Method RUNTIME_EXIT = Method.getMethod("void exit (Runtime, int)");
    public static final Method HALT = Method.getMethod("void halt (Runtime, int)");
    public static final Method CURRENT_THREAD = Method.getMethod("Thread currentThread ()");
    public static final Method ACTIVE_COUNT = Method.getMethod("int activeCount ()");
    public static final Method ENUMERATE = Method.getMethod("int enumerate (Thread[])");
    public static final Method GROUP_ACTIVE_COUNT = Method.getMethod("int activeCount (ThreadGroup)");
    public static final Method GROUP_ENUMERATE = Method.getMethod("int enumerate (ThreadGroup, Thread[])");
    public static final Method SLEEP = Method.getMethod("void sleep (long)");
    public static final Method SLEEP_NANOS = Method.getMethod("void sleep (long, int)");
    public static final Method EXIT = Method.getMethod("void exit (int)");

    private RuntimeHooks() {}
}
