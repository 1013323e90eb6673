package dev.distvm.rewriter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What a rewrite did to one class, per kind: for the agent's log and for tests. */
public final class RewriteCounts {
    /** The concurrency visitors' kinds first, then the object space's: tests select a group by range. */
    public enum Kind {
        /** Includes the monitor enters generated for synchronized methods. */
        MONITOR_ENTER(true),
        /** Includes the two monitor exits (return and rethrow) generated per synchronized method. */
        MONITOR_EXIT(true),
        SYNCHRONIZED_METHOD(true),
        /** Native methods renamed behind a wrapper that asks the runtime first (NativeMethodRewriter). */
        NATIVE_METHOD(true),
        /** Synchronized methods that wait, whose wrapper runs the call at the object's home on a worker (HomeCallShape). */
        HOME_CALL(true),
        WAIT(true),
        /** notify() and notifyAll(). */
        NOTIFY(true),
        THREAD_START(true),
        THREAD_JOIN(true),
        /** isAlive(), getState() and getStackTrace(). */
        THREAD_IS_ALIVE(true),
        /** activeCount() and enumerate(Thread[]) of Thread and ThreadGroup: the program's threads of every node. */
        THREAD_COUNT(true),
        /** getId() and threadId(). */
        THREAD_ID(true),
        /** interrupt(), isInterrupted() and Thread.interrupted(). */
        THREAD_INTERRUPT(true),
        CURRENT_THREAD(true),
        SLEEP(true),
        IDENTITY_HASH_CODE(true),
        /** System.exit, Runtime.exit and Runtime.halt. */
        EXIT(true),
        /** Lambdas and method references made serializable, so that a thread's task and the lambdas it reaches can travel. */
        SERIALIZABLE_LAMBDA(true),
        /** {@code $dist$lookup()} added to a class that makes lambdas, so that they can be made again on another node. */
        LAMBDA_LOOKUP(true),
        // ---- the object space (ObjectStateInjector, FieldAccessRewriter, ClassInitializerRewriter) ----
        /** {@code $dist$meta} added to a root class. */
        OBJECT_STATE_FIELDS(true),
        /** {@code $dist$sstate} added to a class. */
        STATIC_STATE_FIELD(true),
        FINAL_REMOVED(true),
        /** {@code hashCode()} delegating to the hook's identity hash added. */
        HASH_CODE_ADDED(true),
        /** A read of a volatile instance field (the others stay direct). */
        VOLATILE_FIELD_READ(true),
        FIELD_WRITE(true),
        STATIC_READ(true),
        STATIC_WRITE(true),
        /** A field handle constant ({@code ldc}, bootstrap argument) redirected to a helper. */
        FIELD_HANDLE(true),
        /** Rewritten instructions (already counted as reads or writes) whose field is volatile. */
        VOLATILE_ACCESS(true),
        /** Synthetic {@code $dist$get...} / {@code $dist$put...} / {@code $dist$written...} methods generated. */
        ACCESS_HELPER(true),
        CLASS_INITIALIZER_PROLOGUE(true),
        /** A {@code <clinit>} created for a class with static fields but no initializer. */
        CLASS_INITIALIZER_ADDED(true),
        /** A constructor's write to a field of {@code uninitializedThis}, which no method may receive. */
        DIRECT_UNINITIALIZED_THIS(false),
        /**
         * An enum constructor's write to its own constant's field, which stays final: enum constants
         * are made on every node and never shared, so the write needs no tracking.
         */
        DIRECT_ENUM_CONSTRUCTOR(false),
        /** A class initializer's access to its own class's static fields. */
        DIRECT_OWN_CLASS_INITIALIZER(false),
        /** An access in an interface older than Java 8, which cannot hold a static helper. */
        DIRECT_OLD_INTERFACE(false),
        /** A read of an instance field that is not volatile: a copy always holds its object's state. */
        DIRECT_INSTANCE_READ(false),
        // ---- arrays (ArrayReadRewriter on workers only, ArrayStoreRewriter, ArrayPassingRewriter) ----
        /** A primitive array load preceded by the hook that faults the element's chunk in. */
        ARRAY_READ(true),
        /** A call of JDK code preceded by the hook that faults in each array it is handed. */
        ARRAY_PASSING(true),
        /** An array store instruction replaced by the hook that stores and marks the chunk. */
        ARRAY_STORE(true),
        /** A call of JDK code handed an array, routed through a helper that marks the array afterwards. */
        ARRAY_PASSED(true),
        /** A call of JDK code handed an array directly: a constructor, an interface's super call, a call in an old interface. */
        DIRECT_ARRAY_PASSED(false);


        private final boolean changesClass;

        Kind(boolean changesClass) {
            this.changesClass = changesClass;
        }

        public boolean changesClass() {
            return changesClass;
        }
    }

    private final Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    private final List<String> homeCalls = new ArrayList<>();

    void add(Kind kind) {
        counts.merge(kind, 1, Integer::sum);
    }

    void addHomeCall(String key) {
        add(Kind.HOME_CALL);
        homeCalls.add(key);
    }

    /**
     * The methods whose calls a worker may run at the object's home, as {@code HomeCalls} keys:
     * {@code binary.ClassName#name(descriptor)}. The home accepts such a call only for a method its
     * own rewrite of the class listed.
     */
    public List<String> homeCalls() {
        return List.copyOf(homeCalls);
    }

    public int get(Kind kind) {
        return counts.getOrDefault(kind, 0);
    }

    /** Whether the class's bytes differ from the input; when not, the caller keeps the original. */
    public boolean changed() {
        return counts.keySet().stream().anyMatch(kind -> kind.changesClass);
    }

    /** Only the kinds that occurred. */
    public Map<Kind, Integer> asMap() {
        return Collections.unmodifiableMap(new EnumMap<>(counts));
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
