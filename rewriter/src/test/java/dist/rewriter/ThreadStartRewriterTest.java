package dist.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.util.CheckClassAdapter;

class ThreadStartRewriterTest {
    /** The hook the rewritten code calls; records and starts, as the runtime's hook does. */
    public static final class RecordingHook {
        static final List<String> started = new CopyOnWriteArrayList<>();

        public static void start(Thread thread) {
            started.add(thread.getName());
            thread.start();
        }
    }

    /** Input: starts a plain thread, a subclass, and calls an unrelated start() method. */
    public static final class Subject {
        public static final class Worker extends Thread {
            public Worker() {
                super("worker-subclass");
            }

            @Override
            public void run() {}
        }

        public static final class Engine {
            public boolean started;

            public void start() {
                started = true;
            }
        }

        public static boolean run() throws InterruptedException {
            Thread plain = new Thread(() -> {}, "plain");
            plain.start();
            Worker worker = new Worker();
            worker.start();
            Engine engine = new Engine();
            engine.start();
            plain.join();
            worker.join();
            return engine.started;
        }
    }

    private static final String HOOK = RecordingHook.class.getName().replace('.', '/');

    private static boolean isThread(String internalName) {
        return internalName.equals("java/lang/Thread")
                || internalName.equals(Subject.Worker.class.getName().replace('.', '/'));
    }

    private static byte[] bytesOf(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    private static byte[] rewrite(byte[] original, boolean[] changed) {
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(reader, 0);
        ThreadStartRewriter rewriter = new ThreadStartRewriter(writer, ThreadStartRewriterTest::isThread, HOOK);
        reader.accept(rewriter, 0);
        changed[0] = rewriter.changed();
        return writer.toByteArray();
    }

    @Test
    void rewrittenClassVerifiesAndRoutesOnlyThreadStartsThroughTheHook() throws Exception {
        boolean[] changed = new boolean[1];
        byte[] rewritten = rewrite(bytesOf(Subject.class), changed);
        assertTrue(changed[0]);

        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(rewritten), getClass().getClassLoader(), false, new PrintWriter(problems));
        assertEquals("", problems.toString());

        ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(Subject.class.getName())) {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> loaded = findLoadedClass(name);
                        return loaded != null ? loaded : defineClass(name, rewritten, 0, rewritten.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        RecordingHook.started.clear();
        Object engineStarted = loader.loadClass(Subject.class.getName()).getMethod("run").invoke(null);
        assertEquals(true, engineStarted, "an unrelated start() must still run");
        assertEquals(List.of("plain", "worker-subclass"), RecordingHook.started);
    }

    @Test
    void classWithoutThreadStartsIsLeftUnchanged() throws Exception {
        boolean[] changed = new boolean[1];
        rewrite(bytesOf(Subject.Engine.class), changed);
        assertFalse(changed[0]);
    }

    @Test
    void jdkAndDistClassesAreNotApplicationClasses() {
        assertFalse(ApplicationClasses.isApplicationClass("java/util/HashMap", false));
        assertFalse(ApplicationClasses.isApplicationClass("dist/agent/Agent", false));
        assertFalse(ApplicationClasses.isApplicationClass("com/example/App", true));
        assertFalse(ApplicationClasses.isApplicationClass(null, false));
        assertTrue(ApplicationClasses.isApplicationClass("com/example/App", false));
    }
}
