package dev.distvm.objectspace;

import dev.distvm.transport.WireBuffer;

/**
 * What a placed thread runs, written at the home and rebuilt on the worker: a lambda or method
 * reference (by value, {@link Lambdas}), an application object's
 * {@code run()}, or an application {@code Thread} subclass's own {@code run()}. Anything else
 * (a JDK Runnable, a lambda the rewriter did not see) is refused, and the thread stays home.
 */
final class ThreadTasks {
    private static final int LAMBDA = 0, RUNNABLE_OBJECT = 1, THREAD_SUBCLASS = 2;

    private ThreadTasks() {}

    /** Writes what {@code thread} runs, starting from its {@link #root}. */
    static void write(Thread thread, Object root, WireWriter writer) {
        WireBuffer out = writer.body();
        if (root == thread) {
            out.appendByte((byte) THREAD_SUBCLASS);
            writer.ref(thread);
        } else if (Lambdas.isLambda(root)) {
            out.appendByte((byte) LAMBDA);
            writer.value(root);
        } else {
            out.appendByte((byte) RUNNABLE_OBJECT);
            writer.ref(root);
        }
    }

    /**
     * What a placed thread's message starts from: an application Thread subclass itself, else the
     * lambda or application object it runs; throws {@link UnsharableException} when it cannot travel.
     */
    static Object root(Thread thread) {
        if (thread.getClass() != Thread.class) {
            if (Slots.isJdk(thread.getClass())) {
                throw new UnsharableException(thread.getClass(), "it is a JDK thread class");
            }
            return thread;
        }
        Object task = ThreadFields.task(thread);
        if (task == null) {
            throw new UnsharableException(Thread.class, "the thread has nothing to run");
        }
        if (!Lambdas.isLambda(task) && Slots.isJdk(task.getClass())) {
            throw new UnsharableException(task.getClass(), "the thread runs a JDK Runnable");
        }
        return task;
    }

    /** Rebuilds the task on the worker; for a Thread subclass, the copy of the thread itself. */
    static Runnable read(WireReader reader) {
        int kind = Byte.toUnsignedInt(reader.body().get());
        Object task = switch (kind) {
            case THREAD_SUBCLASS, RUNNABLE_OBJECT -> reader.ref();
            case LAMBDA -> reader.value();
            default -> throw new IllegalArgumentException("unknown thread task kind " + kind);
        };
        if (!(task instanceof Runnable runnable)) {
            throw new IllegalArgumentException("object-space message: a thread's task is a "
                    + (task == null ? "null" : task.getClass().getName()));
        }
        return runnable;
    }
}
