package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessProfilingRewriterTest {
    /** Numbers the sites and keeps what each is. */
    private static final class Registry implements AccessSites {
        final List<String> sites = new ArrayList<>();

        @Override
        public int register(Kind kind, String target, String className, String method, String sourceFile, int line) {
            assertEquals("ProfiledShapes.java", sourceFile);
            assertTrue(line > 0, "no line for " + kind + " " + target + " in " + method);
            sites.add(kind + " " + target + " in " + method);
            return sites.size() - 1;
        }
    }

    /** Defines ProfiledShapes and its inner class rewritten (the JVM verifies them), all else from the test's loader. */
    private static final class Profiled extends ClassLoader {
        final Registry registry = new Registry();

        Profiled() {
            super(Profiled.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (!name.startsWith(ProfiledShapes.class.getName())) {
                    return super.loadClass(name, resolve);
                }
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        byte[] rewritten = AccessProfilingRewriter.rewrite(in.readAllBytes(), AccessRecorder.OWNER, registry);
                        loaded = defineClass(name, rewritten, 0, rewritten.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                return loaded;
            }
        }
    }

    @Test
    void rewrittenCodeComputesWhatTheOriginalDoesAndCallsTheHookBeforeEachAccess() throws Exception {
        Profiled loader = new Profiled();
        AccessRecorder.CALLS.clear();
        Object result = loader.loadClass(ProfiledShapes.class.getName()).getMethod("run").invoke(null);

        assertEquals(ProfiledShapes.run(), result);
        List<String> called = new ArrayList<>();
        for (AccessRecorder.Call call : AccessRecorder.CALLS) {
            called.add(loader.registry.sites.get(call.site()));
        }
        String shapes = "dev/distvm/rewriter/ProfiledShapes";
        for (String expected : List.of(
                "FIELD_WRITE " + shapes + ".wide in run", "FIELD_WRITE " + shapes + ".real in run",
                "STATIC_WRITE " + shapes + ".staticWide in run", "STATIC_READ " + shapes + ".staticWide in run",
                "ARRAY_WRITE long[] in run", "ARRAY_WRITE double[] in run", "ARRAY_WRITE int[] in run",
                "ARRAY_WRITE byte[] or boolean[] in run", "ARRAY_WRITE char[] in run", "ARRAY_WRITE short[] in run",
                "ARRAY_WRITE float[] in run", "ARRAY_WRITE Object[] in run", "ARRAY_READ long[] in run",
                "MONITOR_ENTER " + shapes + " in run", "SYNCHRONIZED_METHOD " + shapes + " in total",
                "FIELD_READ " + shapes + ".narrow in <init>")) {
            assertTrue(called.contains(expected), "no call for " + expected + " in " + called);
        }
        assertTrue(called.stream().noneMatch(site -> site.startsWith("FIELD_WRITE") && site.endsWith("<init>")),
                "a field write in a constructor was hooked: " + called);
        int wideWrite = called.indexOf("FIELD_WRITE " + shapes + ".wide in run");
        Object shapesObject = AccessRecorder.CALLS.get(wideWrite).target();
        assertEquals(loader.loadClass(ProfiledShapes.class.getName()), shapesObject.getClass(), "the target is the object written");
        int enter = called.indexOf("MONITOR_ENTER " + shapes + " in run");
        assertTrue(AccessRecorder.CALLS.get(enter).target() == shapesObject, "the target of the enter is the monitor");
        int longStore = called.indexOf("ARRAY_WRITE long[] in run");
        assertTrue(AccessRecorder.CALLS.get(longStore).target() instanceof long[], "the target of a long store is its array");
        assertEquals(null, AccessRecorder.CALLS.get(called.indexOf("SYNCHRONIZED_METHOD " + shapes + " in total")).target(),
                "a static synchronized method has no object");
    }
}
