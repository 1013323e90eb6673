package dev.distvm.objectspace;

/**
 * The JVM thread that runs a placed task on a worker ({@link TaskFrames} makes one, or a hidden
 * subclass of it for a task that is a {@code Thread} subclass; it does not override {@code run},
 * so a stack still starts with {@code Thread.run}). It carries what every monitor enter and exit of
 * its thread asks for, the shared monitors it holds: a field read where a thread-local look-up was
 * (two per enter and exit, a fifth of an uncontended re-entry of a shared monitor on a worker).
 * Threads the worker did not make that run program code (a JDK pool's, a finalizer) keep theirs in
 * a thread-local ({@link CopyMonitors}).
 */
class WorkerThread extends Thread {
    final HeldMonitors held = new HeldMonitors();

    WorkerThread(ThreadGroup group, Runnable task, String name) {
        super(group, task, name);
    }

    WorkerThread(ThreadGroup group, String name) {
        super(group, name);
    }
}
