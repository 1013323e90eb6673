package dev.distvm.objectspace;

/**
 * The JVM thread that runs a placed task on a worker ({@link TaskFrames} makes one, or a hidden
 * subclass of it for a task that is a {@code Thread} subclass; it does not override {@code run},
 * so a stack still starts with {@code Thread.run}). It carries what hot paths of its thread ask for:
 * the shared monitors it holds (every monitor enter and exit: a field read where two thread-local
 * look-ups were, a fifth of an uncontended re-entry of a shared monitor on a worker), and which
 * program thread it runs (every {@code Thread.currentThread()} of the program: 3.9 ns with a
 * thread-local). Threads the worker did not make that run program code (a JDK pool's, a finalizer)
 * keep their held monitors in a thread-local ({@link CopyMonitors}) and run no placed task.
 */
class WorkerThread extends Thread {
    /** Counts its enters in batches of this many (added at the end of its task too, see {@link ThreadsPlacedHere}). */
    private static final int ENTERS_PER_COUNT = 1024;
    final HeldMonitors held = new HeldMonitors(ENTERS_PER_COUNT);
    /** Set by the thread itself before its task runs ({@link ThreadsPlacedHere}); null before. */
    ThreadsPlacedHere.PlacedHere placed;

    /** {@code stackSize}: what the program asked of its Thread's constructor (0: the JVM's default). */
    WorkerThread(ThreadGroup group, Runnable task, String name, long stackSize) {
        super(group, task, name, stackSize);
    }

    WorkerThread(ThreadGroup group, String name, long stackSize) {
        super(group, null, name, stackSize);
    }
}
