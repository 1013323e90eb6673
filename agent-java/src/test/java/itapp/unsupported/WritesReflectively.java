package itapp.unsupported;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;

/**
 * Threads that count under a monitor by writing a field through reflection, and through a
 * VarHandle: writes the rewriter does not see, which on a worker never reached the home (a count
 * of 2000 where one JVM prints 4000, exit status 0). The placement sees the calls in the threads'
 * code and keeps them home.
 */
public final class WritesReflectively {
    private WritesReflectively() {}

    static final class Box {
        int reflected;
        int handled;
    }

    public static void main(String[] args) throws Exception {
        Box box = new Box();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                try {
                    Field field = Box.class.getDeclaredField("reflected");
                    VarHandle handle = MethodHandles.lookup().findVarHandle(Box.class, "handled", int.class);
                    for (int i = 0; i < 1000; i++) {
                        synchronized (box) {
                            field.setInt(box, field.getInt(box) + 1);
                            handle.getAndAdd(box, 2);
                        }
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }, "writer-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("reflected " + box.reflected + ", through a handle " + box.handled);
    }
}
