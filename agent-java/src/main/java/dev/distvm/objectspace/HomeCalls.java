package dev.distvm.objectspace;

import dev.distvm.rewriter.RuntimeHooks;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Synchronized methods of the program that wait and whose code may run at their object's home (the
 * rewriter's {@code HomeCallShape}: a barrier's {@code await}, a queue's {@code take}). On a worker,
 * once other nodes use a copy's monitor, such a call runs on the home's master as a forwarded call
 * ({@link WorkerRuntime#callHome}): one round trip, where entering, waiting and entering again through
 * the node's lease passes the monitor between nodes several times per call.
 *
 * <p>A method is named by its key, {@code binary.ClassName#name(descriptor)}. The home runs only
 * methods its own rewrite of the class listed ({@link #declare}): every class whose master it
 * holds was loaded, so rewritten, there.
 */
final class HomeCalls {
    private static final Set<String> DECLARED = ConcurrentHashMap.newKeySet();
    private static final Map<String, Method> METHODS = new ConcurrentHashMap<>();
    /** At the home, on a thread running a worker's call: whether the call waited (see {@link #waiting}). */
    private static final ThreadLocal<boolean[]> WAITED = new ThreadLocal<>();

    private HomeCalls() {}

    /** The rewriter listed these methods of a class it rewrote on this node. */
    static void declare(Collection<String> keys) {
        DECLARED.addAll(keys);
    }

    /** Whether {@code key} names a method of the program rather than one of a JDK synchronizer's ({@link ForwardedCalls}). */
    static boolean isHomeCall(String key) {
        return key.indexOf('#') > 0;
    }

    /**
     * The body of the method {@code key} names ({@code $dist$sync$name}, private: called without
     * the virtual dispatch that would run a subclass's override, whose {@code super} call this
     * may be), declared by {@code type} or a superclass; refuses a method the rewriter did not
     * list here. The caller takes the monitor around it, as the method's wrapper does.
     */
    static Method method(Class<?> type, String key) {
        if (!DECLARED.contains(key)) {
            throw new IllegalArgumentException("a call at the home of " + key + ", which this node's rewriting of "
                    + type.getName() + " did not allow");
        }
        return METHODS.computeIfAbsent(key, k -> find(type, k));
    }

    private static Method find(Class<?> type, String key) {
        int hash = key.indexOf('#');
        String owner = key.substring(0, hash);
        String body = RuntimeHooks.SYNCHRONIZED_BODY_PREFIX + key.substring(hash + 1);
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(owner)) {
                for (Method method : c.getDeclaredMethods()) {
                    if (ForwardedCalls.key(method).equals(body)) {
                        method.setAccessible(true); // the program's class, in an unnamed module: open to dist
                        return method;
                    }
                }
            }
        }
        throw new IllegalArgumentException("a call at the home of " + key + " on a " + type.getName()
                + ", which has no such method");
    }

    /** At the home: a thread waits on a monitor; if it runs a worker's call, the call waited. */
    static void waiting() {
        boolean[] waited = WAITED.get();
        if (waited != null) {
            waited[0] = true;
        }
    }

    /** At the home, before a worker's call runs on this thread: the flag {@link #waiting} sets. */
    static boolean[] noteWaits() {
        boolean[] waited = new boolean[1];
        WAITED.set(waited);
        return waited;
    }

    static void stopNotingWaits() {
        WAITED.remove();
    }

    /**
     * What the home threw, with the frames below the method's body replaced by the caller's, from
     * the method's wrapper on: the home ran the body on a thread of dist's pool, where the program's
     * stack was this thread's (the same frames as when the method runs here).
     */
    static void asIfThrownHere(Throwable thrown, String key) {
        int hash = key.indexOf('#');
        String owner = key.substring(0, hash);
        String name = key.substring(hash + 1, key.indexOf('('));
        StackTraceElement[] atHome = thrown.getStackTrace();
        StackTraceElement[] here = new Throwable().getStackTrace();
        int body = firstFrameOf(atHome, owner, RuntimeHooks.SYNCHRONIZED_BODY_PREFIX + name);
        int wrapper = firstFrameOf(here, owner, name);
        if (body < 0 || wrapper < 0) {
            return;
        }
        StackTraceElement[] spliced = new StackTraceElement[body + 1 + here.length - wrapper];
        System.arraycopy(atHome, 0, spliced, 0, body + 1);
        System.arraycopy(here, wrapper, spliced, body + 1, here.length - wrapper);
        thrown.setStackTrace(spliced);
    }

    /** The innermost frame of the method {@code owner.name}. */
    private static int firstFrameOf(StackTraceElement[] frames, String owner, String name) {
        for (int i = 0; i < frames.length; i++) {
            if (frames[i].getClassName().equals(owner) && frames[i].getMethodName().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
