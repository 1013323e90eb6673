package itapp.unsupported;

/**
 * An application class with native methods (libdistjnifixture.so, named by the system property
 * {@code itapp.jni}). Its class initializer loads the library, as such classes do, so under dist
 * the library is the home's: main's calls run there, and a thread placed on a worker that calls
 * one must stop the run naming the method, never compute without it. On one JVM it prints the
 * results of main's calls, then a line for each caller thread.
 */
public final class NativeCalls {
    static {
        System.load(System.getProperty("itapp.jni"));
    }

    private NativeCalls() {}

    /** Bound by its JNI symbol name. */
    static native long mix(int a, long b, double c);

    /** Bound by RegisterNatives, in the library's JNI_OnLoad. */
    synchronized native int twice(int x);

    /** In no library. */
    static native void missing();

    public static void main(String[] args) throws InterruptedException {
        NativeCalls shared = new NativeCalls();
        String missing;
        try {
            missing();
            missing = "linked";
        } catch (UnsatisfiedLinkError e) {
            missing = e.getClass().getName();
        }
        System.out.println("mix " + mix(1, 2L, 1.5) + ", twice " + shared.twice(21) + ", missing " + missing);
        for (int i = 0; i < 2; i++) {
            int x = i;
            Thread caller = new Thread(() -> System.out.println(Thread.currentThread().getName() + ": twice "
                    + shared.twice(x)), "caller-" + i);
            // One at a time: with two nodes caller-0 runs on the worker (main is the home's load) and stops the run.
            caller.start();
            caller.join();
        }
    }
}
