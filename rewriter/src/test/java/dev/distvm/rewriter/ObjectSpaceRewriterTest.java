package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.distvm.rewriter.ClassRewriter.Result;
import dev.distvm.rewriter.RewriteCounts.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.util.CheckClassAdapter;

class ObjectSpaceRewriterTest {
    /** The application classes: everything nested in here, and nothing else. */
    public static final class Subjects {
        public static class Counter {
            public int count;
            public String label = "start";

            public int increment() {
                count = count + 1;
                return count;
            }

            public String label() {
                return label;
            }

            public void relabel(String newLabel) {
                label = newLabel;
            }
        }

        public static class Wide {
            public long big = 1L << 40;
            public double ratio = 1.5;

            public long addBig(long delta) {
                big += delta;
                return big;
            }

            public double scale(double factor) {
                ratio = ratio * factor;
                return ratio;
            }
        }

        public static class Volatiles {
            public volatile int counter;
            public volatile long big;
            public static volatile boolean flag;

            public int bump() {
                counter = counter + 1;
                return counter;
            }

            public static boolean toggle() {
                flag = !flag;
                return flag;
            }

            public long setBig(long value) {
                big = value;
                return big;
            }
        }

        public static class Statics {
            public static int hits;
            public static String name = "statics";

            static {
                hits = 10;
            }

            public static int hit() {
                return ++hits;
            }
        }

        public static class StaticsReader {
            public static int read() {
                return Statics.hits + Statics.name.length();
            }
        }

        /** Names {@link Statics}' fields through itself: they live in {@code Statics}' statics. */
        public static class NamesInheritedStatics extends Statics {
            public static int bump() {
                NamesInheritedStatics.hits += 2;
                return NamesInheritedStatics.hits;
            }
        }

        public interface Constants {
            List<String> NAMES = new ArrayList<>(List.of("a", "b"));

            default int namesPlus(int more) {
                return NAMES.size() + more;
            }
        }

        public static class ConstantsReader implements Constants {
            public static int read() {
                return Constants.NAMES.size();
            }
        }

        public static class Base {
            public int baseValue = 5;
        }

        public static class Derived extends Base {
            public int own = 2;

            public int sum() {
                return baseValue + own;
            }

            public void bump() {
                baseValue++;
                own++;
            }
        }

        public static class Outer {
            public int secret = 41;

            public class Inner {
                public int reveal() {
                    return secret + 1;
                }
            }

            public Inner inner() {
                return new Inner();
            }
        }

        public static class Sealed {
            public static final int LIMIT = 7;
            public static final List<String> NAMES = List.of("x");
            private final int value;

            public Sealed(int value) {
                this.value = value;
            }

            public int value() {
                return value;
            }
        }

        public static class Plain {}

        /** Under a JDK class that leaves hashCode to Object. */
        public static class PerThread extends ThreadLocal<int[]> {}

        /** Under a JDK class with a hashCode of its own. */
        public static class Listing extends java.util.AbstractList<String> {
            @Override
            public String get(int index) {
                throw new IndexOutOfBoundsException(index);
            }

            @Override
            public int size() {
                return 0;
            }
        }

        public static class OwnHash {
            @Override
            public int hashCode() {
                return 42;
            }
        }

        public static class NoInitializer {
            public static int zero;

            public static int read() {
                return zero;
            }
        }

        public static class Initialized {
            public static int value = 99;
        }

        /** Its initializer starts with a loop head, so its first instruction already has a frame. */
        public static class LoopInitializer {
            public static int x;

            static {
                do {
                    x++;
                } while (x < 5);
            }
        }

        public enum Color {
            RED(0xff0000), GREEN(0x00ff00), BLUE(0x0000ff);

            public final int rgb;

            Color(int rgb) {
                this.rgb = rgb;
            }

            public Color next() {
                return values()[(ordinal() + 1) % values().length];
            }
        }

        public record Point(int x, int y) {
            public int sum() {
                return x + y;
            }
        }

        public interface Marker {}
    }

    private static final String SUBJECTS = Subjects.class.getName().replace('.', '/');

    private static final String COMPILED = "dev/distvm/rewriter/compiled/";
    private static final ClassLoader TEST_CLASSES = ObjectSpaceRewriterTest.class.getClassLoader();

    private static boolean isSubject(String internalName) {
        return internalName.startsWith(SUBJECTS) || internalName.startsWith(COMPILED);
    }

    private final ClassRewriter rewriter = LoadedClasses.OF_TESTS.rewriter(ObjectSpaceRewriterTest::isSubject);

    /**
     * Defines the rewritten subjects, each verified first, from the class files {@code originals}
     * holds; everything else comes from the test's loader.
     */
    private static final class RewritingLoader extends ClassLoader {
        private final ClassLoader originals;
        private final ClassRewriter rewriter;
        private final Map<String, byte[]> generated = new HashMap<>();
        private final Map<String, Result> results = new HashMap<>();

        RewritingLoader() {
            this(TEST_CLASSES);
        }

        RewritingLoader(ClassLoader originals) {
            super(TEST_CLASSES);
            this.originals = originals;
            this.rewriter = new LoadedClasses(originals).rewriter(ObjectSpaceRewriterTest::isSubject);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            String internalName = name.replace('.', '/');
            if (!isSubject(internalName)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] original = generated.containsKey(internalName) ? generated.get(internalName) : bytesOf(internalName, originals);
                    Result result = rewriter.rewrite(original);
                    results.put(internalName, result);
                    byte[] bytes = result.changed() ? result.bytes() : original;
                    assertVerifies(bytes, originals);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                return loaded;
            }
        }

        Class<?> subject(Class<?> original) throws ClassNotFoundException {
            return loadClass(original.getName());
        }

        Class<?> generated(String internalName, byte[] bytes) throws ClassNotFoundException {
            generated.put(internalName, bytes);
            return loadClass(internalName.replace('/', '.'));
        }

        Result result(Class<?> type) {
            return results.get(type.getName().replace('.', '/'));
        }
    }

    private static byte[] bytesOf(String internalName) {
        return bytesOf(internalName, TEST_CLASSES);
    }

    private static byte[] bytesOf(String internalName, ClassLoader originals) {
        try (InputStream in = originals.getResourceAsStream(internalName + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void assertVerifies(byte[] bytes, ClassLoader originals) {
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(bytes), originals, false, new PrintWriter(problems));
        assertEquals("", problems.toString(), "verifier on " + new ClassReader(bytes).getClassName());
    }

    private static Object call(Object target, String method, Object... arguments) throws Exception {
        Class<?> type = target instanceof Class<?> c ? c : target.getClass();
        for (Method candidate : type.getMethods()) {
            if (candidate.getName().equals(method) && candidate.getParameterCount() == arguments.length) {
                try {
                    return candidate.invoke(target instanceof Class<?> ? null : target, arguments);
                } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof Exception exception) {
                        throw exception;
                    }
                    throw (Error) e.getCause();
                }
            }
        }
        throw new NoSuchMethodException(method);
    }

    private static Object newInstance(Class<?> type, Object... arguments) throws Exception {
        return type.getConstructors()[0].newInstance(arguments);
    }

    /** Shares the object as the runtime would: a worker's copy record or the home's id in its meta. */
    private static void setMeta(Object object, Object meta) throws Exception {
        object.getClass().getField("$dist$meta").set(object, meta);
    }

    private static void setStaticState(Class<?> type, int state) throws Exception {
        type.getField("$dist$sstate").setInt(null, state);
    }

    @BeforeEach
    void resetHook() {
        ObjectSpaceCalls.reset();
    }

    @Test
    void instanceReadsStayDirectAndWritesToSharedObjectsReportThemselves() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Object counter = newInstance(loader.subject(Subjects.Counter.class));
        Result result = loader.result(counter.getClass());
        assertEquals(3, result.counts().get(Kind.DIRECT_INSTANCE_READ), "count twice, label once");
        assertEquals(0, result.counts().get(Kind.VOLATILE_FIELD_READ));
        assertEquals(3, result.counts().get(Kind.FIELD_WRITE), "the constructor's write after super() included");
        assertEquals(1, result.counts().get(Kind.ACCESS_HELPER), "one reporter of writes to Counter; the stores stay the program's");
        assertEquals(1, result.counts().get(Kind.OBJECT_STATE_FIELDS));
        assertTrue(Arrays.stream(counter.getClass().getDeclaredMethods()).noneMatch(m -> m.getName().startsWith("$dist$get")),
                "no read helpers");

        assertEquals(1, call(counter, "increment"));
        assertEquals(List.of(), ObjectSpaceCalls.calls("written"), "a local object's writes are not reported");

        setMeta(counter, "a copy's record"); // a valid copy: reads as they are, each write reported after the store
        assertEquals(2, call(counter, "increment"));
        call(counter, "relabel", "moved");
        assertEquals("moved", call(counter, "label"));
        assertEquals(List.of("written Counter", "written Counter"), ObjectSpaceCalls.calls("written"));
        ObjectSpaceCalls.targets().forEach(target -> assertSame(counter, target));

        ObjectSpaceCalls.reset();
        setMeta(counter, 7L); // a shared master (its id): the same
        assertEquals(3, call(counter, "increment"));
        assertEquals(List.of("written Counter"), ObjectSpaceCalls.calls("written"));
    }

    @Test
    void longAndDoubleFieldsAreStoredWholeAndReported() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Object wide = newInstance(loader.subject(Subjects.Wide.class));
        assertEquals((1L << 40) + 3, call(wide, "addBig", 3L));
        setMeta(wide, "a copy\'s record");
        assertEquals((1L << 40) + 3 + (1L << 35), call(wide, "addBig", 1L << 35));
        assertEquals(3.75, call(wide, "scale", 2.5));
        assertEquals(List.of("written Wide", "written Wide"), ObjectSpaceCalls.calls("written"));
    }

    @Test
    void volatileFieldsAreBracketedByTheVolatileHooks() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.subject(Subjects.Volatiles.class);
        Object volatiles = newInstance(type);
        setMeta(volatiles, "a copy\'s record");
        String[] hooks = {"written", "staticFault", "beforeVolatileRead", "afterVolatileRead", "beforeVolatileWrite", "afterVolatileWrite"};

        assertEquals(1, call(volatiles, "bump"));
        assertEquals(List.of("beforeVolatileRead Volatiles", "afterVolatileRead",
                "beforeVolatileWrite Volatiles Volatiles.counter", "afterVolatileWrite Volatiles Volatiles.counter",
                "beforeVolatileRead Volatiles", "afterVolatileRead"), ObjectSpaceCalls.calls(hooks));

        ObjectSpaceCalls.reset();
        assertEquals(1L << 50, call(volatiles, "setBig", 1L << 50));
        assertEquals(List.of("beforeVolatileWrite Volatiles Volatiles.big", "afterVolatileWrite Volatiles Volatiles.big",
                "beforeVolatileRead Volatiles", "afterVolatileRead"), ObjectSpaceCalls.calls(hooks));

        ObjectSpaceCalls.reset();
        assertEquals(true, call(type, "toggle"));
        assertEquals(List.of("beforeVolatileRead Volatiles.class", "afterVolatileRead",
                "beforeVolatileWrite Volatiles.class Volatiles.flag", "afterVolatileWrite Volatiles.class Volatiles.flag",
                "beforeVolatileRead Volatiles.class", "afterVolatileRead"), ObjectSpaceCalls.calls(hooks));
        assertEquals(8, loader.result(type).counts().get(Kind.VOLATILE_ACCESS));

        // On a worker that has not fetched the class's statics yet, a volatile static is the
        // home's value too: the access faults first, then acquires or releases as above.
        ObjectSpaceCalls.reset();
        setStaticState(type, -1);
        assertEquals(false, call(type, "toggle"));
        assertEquals(List.of("staticFault Volatiles.class", "beforeVolatileRead Volatiles.class", "afterVolatileRead",
                "staticFault Volatiles.class", "beforeVolatileWrite Volatiles.class Volatiles.flag",
                "afterVolatileWrite Volatiles.class Volatiles.flag",
                "staticFault Volatiles.class", "beforeVolatileRead Volatiles.class", "afterVolatileRead"),
                ObjectSpaceCalls.calls(hooks));
    }

    @Test
    void staticFieldsOfClassesFaultOnlyWhenTheStaticsAreNotValid() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> statics = loader.subject(Subjects.Statics.class);
        Class<?> reader = loader.subject(Subjects.StaticsReader.class);
        assertEquals(11, call(statics, "hit"));
        assertEquals(18, call(reader, "read"));
        assertEquals(List.of(), ObjectSpaceCalls.calls("staticFault"));
        assertEquals(List.of(), ObjectSpaceCalls.calls("written"));

        setStaticState(statics, -1);
        assertEquals(12, call(statics, "hit"));
        assertEquals(19, call(reader, "read"));
        assertEquals(List.of("staticFault Statics.class", "staticFault Statics.class",
                "staticFault Statics.class", "staticFault Statics.class"), ObjectSpaceCalls.calls("staticFault"));
        assertEquals(List.of("runClassInitializer Statics.class"), ObjectSpaceCalls.calls("runClassInitializer"));
        ObjectSpaceCalls.reset();
        setStaticState(statics, 1);
        assertEquals(13, call(statics, "hit"));
        assertEquals(List.of("written Statics.class"), ObjectSpaceCalls.calls("written"));

        Result result = loader.result(statics);
        assertEquals(2, result.counts().get(Kind.DIRECT_OWN_CLASS_INITIALIZER), "the initializer's own writes stay direct");
        assertEquals(1, result.counts().get(Kind.STATIC_READ));
        assertEquals(1, result.counts().get(Kind.STATIC_WRITE));
        assertEquals(2, loader.result(reader).counts().get(Kind.STATIC_READ));
    }

    @Test
    void aStaticNamedThroughASubclassChecksAndReportsTheStaticsOfTheClassThatDeclaresIt() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> statics = loader.subject(Subjects.Statics.class);
        Class<?> names = loader.subject(Subjects.NamesInheritedStatics.class);
        call(statics, "hit"); // initialized, so that its initializer's write does not count below
        setStaticState(names, -1); // the named class's state is not the one that counts
        setStaticState(statics, 1);
        ObjectSpaceCalls.reset();
        assertEquals(13, call(names, "bump"));
        assertEquals(List.of("written Statics.class"), ObjectSpaceCalls.calls("written", "staticFault"));

        setStaticState(statics, -1);
        ObjectSpaceCalls.reset();
        call(names, "bump");
        assertEquals(List.of("staticFault Statics.class", "staticFault Statics.class", "staticFault Statics.class"),
                ObjectSpaceCalls.calls("staticFault"));
    }

    @Test
    void staticFieldsOfInterfacesAlwaysFault() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> reader = loader.subject(Subjects.ConstantsReader.class);
        assertEquals(2, call(reader, "read"));
        assertEquals(5, call(newInstance(reader), "namesPlus", 3));
        assertEquals(List.of("staticFault Constants.class", "staticFault Constants.class"), ObjectSpaceCalls.calls("staticFault"));

        Class<?> constants = loader.subject(Subjects.Constants.class);
        Result result = loader.result(constants);
        assertEquals(1, result.counts().get(Kind.STATIC_READ));
        assertEquals(0, result.counts().get(Kind.STATIC_STATE_FIELD));
        assertThrows(NoSuchFieldException.class, () -> constants.getDeclaredField("$dist$sstate"));
        Method helper = constants.getDeclaredMethod("$dist$getstatic$0");
        assertEquals(Modifier.PUBLIC | Modifier.STATIC, helper.getModifiers() & (Modifier.PUBLIC | Modifier.PRIVATE | Modifier.STATIC));
        assertTrue(helper.isSynthetic());
    }

    @Test
    void inheritedFieldsAreReportedByTheRootsState() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> derivedType = loader.subject(Subjects.Derived.class);
        Object derived = newInstance(derivedType);
        assertEquals(7, call(derived, "sum"));
        assertEquals(0, loader.result(derivedType).counts().get(Kind.OBJECT_STATE_FIELDS));
        assertEquals(1, loader.result(derivedType.getSuperclass()).counts().get(Kind.OBJECT_STATE_FIELDS));
        assertThrows(NoSuchFieldException.class, () -> derivedType.getDeclaredField("$dist$meta"));
        assertNotNull(derivedType.getDeclaredField("$dist$sstate"), "every class has its own statics");

        setMeta(derived, "a copy\'s record");
        assertEquals(7, call(derived, "sum"));
        call(derived, "bump");
        assertEquals(9, call(derived, "sum"));
        assertEquals(List.of("written Derived", "written Derived"), ObjectSpaceCalls.calls("written"),
                "the inherited field and the own one");
    }

    @Test
    void constructorWritesBeforeSuperStayDirect() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Object outer = newInstance(loader.subject(Subjects.Outer.class));
        Object inner = call(outer, "inner");
        Result result = loader.result(inner.getClass());
        assertEquals(1, result.counts().get(Kind.DIRECT_UNINITIALIZED_THIS), "this$0 is written before super()");
        assertEquals(2, result.counts().get(Kind.DIRECT_INSTANCE_READ), "this$0 and Outer.secret");
        assertEquals(42, call(inner, "reveal"));
    }

    /** A constructor that branches before super() (as Java 25 constructor prologues may), without frames before Java 6. */
    private static byte[] branchingConstructor(String name, int version) {
        boolean frames = version >= Opcodes.V1_6;
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(version, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC, "x", "I", null, null).visitEnd();
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "created", "I", null, null).visitEnd();

        MethodVisitor constructor = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(Z)V", null, null);
        constructor.visitCode();
        Label otherwise = new Label();
        Label initialize = new Label();
        constructor.visitVarInsn(Opcodes.ILOAD, 1);
        constructor.visitJumpInsn(Opcodes.IFEQ, otherwise);
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitInsn(Opcodes.ICONST_1);
        constructor.visitFieldInsn(Opcodes.PUTFIELD, name, "x", "I");
        constructor.visitJumpInsn(Opcodes.GOTO, initialize);
        constructor.visitLabel(otherwise);
        if (frames) {
            constructor.visitFrame(Opcodes.F_NEW, 2, new Object[] {Opcodes.UNINITIALIZED_THIS, Opcodes.INTEGER}, 0, new Object[0]);
        }
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitInsn(Opcodes.ICONST_2);
        constructor.visitFieldInsn(Opcodes.PUTFIELD, name, "x", "I");
        constructor.visitLabel(initialize);
        if (frames) {
            constructor.visitFrame(Opcodes.F_NEW, 2, new Object[] {Opcodes.UNINITIALIZED_THIS, Opcodes.INTEGER}, 0, new Object[0]);
        }
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitFieldInsn(Opcodes.GETFIELD, name, "x", "I");
        constructor.visitInsn(Opcodes.ICONST_1);
        constructor.visitInsn(Opcodes.IADD);
        constructor.visitFieldInsn(Opcodes.PUTFIELD, name, "x", "I");
        constructor.visitFieldInsn(Opcodes.GETSTATIC, name, "created", "I");
        constructor.visitInsn(Opcodes.ICONST_1);
        constructor.visitInsn(Opcodes.IADD);
        constructor.visitFieldInsn(Opcodes.PUTSTATIC, name, "created", "I");
        constructor.visitInsn(Opcodes.RETURN);
        constructor.visitMaxs(0, 0);
        constructor.visitEnd();

        MethodVisitor created = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "created", "()I", null, null);
        created.visitCode();
        created.visitFieldInsn(Opcodes.GETSTATIC, name, "created", "I");
        created.visitInsn(Opcodes.IRETURN);
        created.visitMaxs(0, 0);
        created.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    @Test
    void constructorBranchingBeforeSuperKeepsBothEarlyWritesDirect() throws Exception {
        assertBranchingConstructorWorks(SUBJECTS + "$BranchingV17", Opcodes.V17);
    }

    @Test
    void classFilesWithoutFramesAreRewrittenWithoutFrames() throws Exception {
        assertBranchingConstructorWorks(SUBJECTS + "$BranchingV1_4", Opcodes.V1_4);
    }

    private void assertBranchingConstructorWorks(String name, int version) throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.generated(name, branchingConstructor(name, version));
        Result result = loader.result(type);
        assertEquals(2, result.counts().get(Kind.DIRECT_UNINITIALIZED_THIS));
        assertEquals(1, result.counts().get(Kind.FIELD_WRITE), "the write after super()");
        assertEquals(1, result.counts().get(Kind.CLASS_INITIALIZER_ADDED));
        assertEquals(2, newInstance(type, true).getClass().getField("x").getInt(newInstance(type, true)));
        assertEquals(3, type.getField("x").getInt(newInstance(type, false)));
        assertEquals(3, call(type, "created"));
        setStaticState(type, -1);
        assertEquals(3, call(type, "created"));
        String simpleName = ObjectSpaceCalls.simpleName(type);
        assertEquals(List.of("runClassInitializer " + simpleName + ".class"), ObjectSpaceCalls.calls("runClassInitializer"));
        assertEquals(List.of("staticFault " + simpleName + ".class"), ObjectSpaceCalls.calls("staticFault"));
        byte[] rewritten = loader.results.get(name).bytes();
        assertEquals(version, new ClassReader(rewritten).readShort(6));
        if (version < Opcodes.V1_6) {
            assertEquals(0, frameCount(rewritten), "no StackMapTable before Java 6");
        } else {
            assertTrue(frameCount(rewritten) >= 4, "the constructor's two, the helper's and the initializer's");
        }
    }

    private static int frameCount(byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, 0);
        return node.methods.stream()
                .mapToInt(method -> (int) StreamSupport.stream(method.instructions.spliterator(), false)
                        .filter(insn -> insn instanceof FrameNode).count())
                .sum();
    }

    @Test
    void interfacesOlderThanJava8KeepTheirAccessesDirect() throws Exception {
        String name = SUBJECTS + "$OldConstants";
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V1_7, Opcodes.ACC_PUBLIC | Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT, name, null, "java/lang/Object", null);
        writer.visitField(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "NAME", "Ljava/lang/String;", null, null).visitEnd();
        MethodVisitor initializer = writer.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        initializer.visitCode();
        initializer.visitFieldInsn(Opcodes.GETSTATIC, SUBJECTS + "$Statics", "name", "Ljava/lang/String;");
        initializer.visitFieldInsn(Opcodes.PUTSTATIC, name, "NAME", "Ljava/lang/String;");
        initializer.visitInsn(Opcodes.RETURN);
        initializer.visitMaxs(0, 0);
        initializer.visitEnd();
        writer.visitEnd();

        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.generated(name, writer.toByteArray());
        Result result = loader.result(type);
        assertEquals(1, result.counts().get(Kind.DIRECT_OLD_INTERFACE));
        assertEquals(1, result.counts().get(Kind.DIRECT_OWN_CLASS_INITIALIZER));
        assertEquals(1, result.counts().get(Kind.CLASS_INITIALIZER_PROLOGUE));
        assertEquals(0, result.counts().get(Kind.FINAL_REMOVED), "interface fields must stay final");
        assertEquals("statics", type.getField("NAME").get(null));
        assertEquals(List.of("runClassInitializer " + ObjectSpaceCalls.simpleName(type) + ".class", "runClassInitializer Statics.class"),
                ObjectSpaceCalls.calls("runClassInitializer"));
    }

    @Test
    void fieldHandleConstantsOfStaticsGoThroughTheHelpers() throws Exception {
        String name = SUBJECTS + "$StaticHandle";
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V11, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
        MethodVisitor read = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "read", "()Ljava/lang/String;", null, null);
        read.visitCode();
        read.visitLdcInsn(new Handle(Opcodes.H_GETSTATIC, SUBJECTS + "$Statics", "name", "Ljava/lang/String;", false));
        read.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", "()Ljava/lang/String;", false);
        read.visitInsn(Opcodes.ARETURN);
        read.visitMaxs(0, 0);
        read.visitEnd();
        writer.visitEnd();

        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.generated(name, writer.toByteArray());
        assertEquals(1, loader.result(type).counts().get(Kind.FIELD_HANDLE));
        setStaticState(loader.subject(Subjects.Statics.class), -1);
        assertEquals("statics", call(type, "read"));
        assertEquals(List.of("staticFault Statics.class"), ObjectSpaceCalls.calls("staticFault"));
    }

    @Test
    void finalIsRemovedExceptFromStaticConstants() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.subject(Subjects.Sealed.class);
        assertEquals(2, loader.result(type).counts().get(Kind.FINAL_REMOVED));
        assertTrue(Modifier.isFinal(type.getField("LIMIT").getModifiers()));
        assertFalse(Modifier.isFinal(type.getField("NAMES").getModifiers()));
        Field value = type.getDeclaredField("value");
        assertFalse(Modifier.isFinal(value.getModifiers()));

        Object sealed = newInstance(type, 5);
        value.setAccessible(true);
        value.setInt(sealed, 8);
        assertEquals(8, call(sealed, "value"));
        type.getField("NAMES").set(null, List.of("y"));
        assertEquals(List.of("y"), type.getField("NAMES").get(null));
    }

    @Test
    void rootsWithoutHashCodeGetTheHooksIdentityHash() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> plainType = loader.subject(Subjects.Plain.class);
        Object plain = newInstance(plainType);
        assertEquals(1, loader.result(plainType).counts().get(Kind.HASH_CODE_ADDED));
        assertNotNull(plainType.getDeclaredMethod("hashCode"));
        assertEquals(System.identityHashCode(plain), plain.hashCode());
        assertEquals(List.of("identityHashCode Plain"), ObjectSpaceCalls.calls("identityHashCode"));
        assertSame(plain, ObjectSpaceCalls.targets().get(ObjectSpaceCalls.targets().size() - 1));

        Class<?> ownHashType = loader.subject(Subjects.OwnHash.class);
        assertEquals(42, newInstance(ownHashType).hashCode());
        assertEquals(0, loader.result(ownHashType).counts().get(Kind.HASH_CODE_ADDED));
        assertEquals(0, loader.result(loader.subject(Subjects.Derived.class)).counts().get(Kind.HASH_CODE_ADDED), "not a root");

        Class<?> perThreadType = loader.subject(Subjects.PerThread.class);
        Object perThread = newInstance(perThreadType);
        assertEquals(1, loader.result(perThreadType).counts().get(Kind.HASH_CODE_ADDED), "ThreadLocal leaves it to Object");
        assertEquals(System.identityHashCode(perThread), perThread.hashCode());
        Class<?> listingType = loader.subject(Subjects.Listing.class);
        assertEquals(0, loader.result(listingType).counts().get(Kind.HASH_CODE_ADDED), "AbstractList has its own");
        assertEquals(1, newInstance(listingType).hashCode(), "the list's hash of no elements");
    }

    @Test
    void classWithStaticFieldsButNoInitializerGetsOne() throws Exception {
        ClassNode original = new ClassNode();
        new ClassReader(bytesOf(SUBJECTS + "$NoInitializer")).accept(original, 0);
        assertTrue(original.methods.stream().noneMatch(method -> method.name.equals("<clinit>")));

        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.subject(Subjects.NoInitializer.class);
        assertEquals(1, loader.result(type).counts().get(Kind.CLASS_INITIALIZER_ADDED));
        assertEquals(1, loader.result(type).counts().get(Kind.CLASS_INITIALIZER_PROLOGUE));
        assertEquals(0, call(type, "read"));
        assertEquals(List.of("runClassInitializer NoInitializer.class"), ObjectSpaceCalls.calls("runClassInitializer"));
    }

    @Test
    void classInitializerBodyRunsOnlyWhenTheHookSaysSo() throws Exception {
        ObjectSpaceCalls.runClassInitializers = false;
        Class<?> skipped = new RewritingLoader().subject(Subjects.Initialized.class);
        assertEquals(0, skipped.getField("value").getInt(null));

        ObjectSpaceCalls.runClassInitializers = true;
        Class<?> ran = new RewritingLoader().subject(Subjects.Initialized.class);
        assertEquals(99, ran.getField("value").getInt(null));
        assertEquals(List.of("runClassInitializer Initialized.class", "runClassInitializer Initialized.class"),
                ObjectSpaceCalls.calls("runClassInitializer"));
    }

    @Test
    void initializerStartingWithABranchTargetKeepsItsOwnFrame() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> type = loader.subject(Subjects.LoopInitializer.class);
        assertEquals(5, type.getField("x").getInt(null));
        assertEquals(3, loader.result(type).counts().get(Kind.DIRECT_OWN_CLASS_INITIALIZER));
        assertEquals(List.of("runClassInitializer LoopInitializer.class"), ObjectSpaceCalls.calls("runClassInitializer"));
    }

    @Test
    void enumsWorkAfterRewriting() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> color = loader.subject(Subjects.Color.class);
        Object red = call(color, "valueOf", "RED");
        assertEquals("GREEN", call(red, "next").toString());
        assertEquals("RED", call(call(color, "valueOf", "BLUE"), "next").toString());
        assertEquals(3, color.getEnumConstants().length);
        // An enum keeps its final fields: its constants are made on every node, and the runtime
        // tells an enum that holds state from one that does not by them.
        assertTrue(Modifier.isFinal(color.getField("RED").getModifiers()));
        assertTrue(Modifier.isFinal(color.getField("rgb").getModifiers()));
        assertEquals(0x00ff00, color.getField("rgb").getInt(red.getClass().getMethod("next").invoke(red)));
        assertEquals(1, loader.result(color).counts().get(Kind.DIRECT_ENUM_CONSTRUCTOR), "the constructor writes rgb directly");
        assertTrue(loader.result(color).counts().get(Kind.STATIC_READ) > 0, "values() reads $VALUES through a helper");
        assertEquals(List.of("runClassInitializer Color.class"), ObjectSpaceCalls.calls("runClassInitializer"));
    }

    @Test
    void recordsWorkAfterRewriting() throws Exception {
        RewritingLoader loader = new RewritingLoader();
        Class<?> pointType = loader.subject(Subjects.Point.class);
        Object point = newInstance(pointType, 1, 2);
        assertEquals(3, call(point, "sum"));
        assertEquals(2, call(point, "y"));
        assertEquals("Point[x=1, y=2]", point.toString());
        assertEquals(newInstance(pointType, 1, 2), point);
        Field x = pointType.getDeclaredField("x");
        assertFalse(Modifier.isFinal(x.getModifiers()));
        x.setAccessible(true);
        x.setInt(point, 10);
        assertEquals(12, call(point, "sum"));

        assertEquals(0, loader.result(pointType).counts().get(Kind.FIELD_HANDLE),
                "equals, hashCode and toString read x and y through their own getfield handles");
        assertEquals(1, loader.result(pointType).counts().get(Kind.ACCESS_HELPER), "the reporter of the constructor's puts of x and y");

        setMeta(point, "a copy\'s record");
        assertEquals(10, call(point, "x"));
        assertEquals("Point[x=10, y=2]", point.toString());
        assertEquals(List.of(), ObjectSpaceCalls.calls("written", "staticFault"));
    }

    private static final String PROGRAM = """
            package dev.distvm.rewriter.compiled;

            import java.util.ArrayList;
            import java.util.List;

            public class Program {
                interface Named {
                    List<String> NAMES = new ArrayList<>();

                    default int register(String name) {
                        Runnable add = () -> NAMES.add(name);
                        add.run();
                        return NAMES.size();
                    }
                }

                enum Mode { FAST, SLOW }

                static class Box implements Named {
                    volatile long total;
                    double half;
                    final int fixed;

                    Box(int fixed) {
                        this.fixed = fixed;
                    }
                }

                class Inner {
                    int get() {
                        return value;
                    }
                }

                private int value = 3;
                static int runs;

                static String describe(Mode mode) {
                    switch (mode) {
                        case FAST: return "fast";
                        default: return "slow";
                    }
                }

                public static String run() {
                    Program program = new Program();
                    Box box = new Box(4);
                    box.total += 5;
                    box.half = box.total / 2.0;
                    runs++;
                    return program.new Inner().get() + "," + box.total + "," + box.half + "," + box.fixed + ","
                            + box.register("x") + "," + runs + "," + describe(Mode.SLOW);
                }
            }
            """;

    /** Class files as javac writes them for older targets: private accessors, StringBuilder concatenation, ... */
    @ParameterizedTest
    @ValueSource(ints = {8, 11, 17})
    void programsCompiledForEachReleaseRunAfterRewriting(int release, @TempDir Path directory) throws Exception {
        Path source = directory.resolve("src/dev/distvm/rewriter/compiled/Program.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, PROGRAM);
        Path classes = Files.createDirectories(directory.resolve("classes"));
        StringWriter diagnostics = new StringWriter();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.getTask(diagnostics, null, null,
                List.of("--release", Integer.toString(release), "-d", classes.toString()), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(source)).call() ? 0 : 1;
        assertEquals(0, status, diagnostics.toString());

        try (URLClassLoader originals = new URLClassLoader(new URL[] {classes.toUri().toURL()}, TEST_CLASSES)) {
            RewritingLoader loader = new RewritingLoader(originals);
            Class<?> program = loader.loadClass("dev.distvm.rewriter.compiled.Program");
            assertEquals("3,5,2.5,4,1,1,slow", call(program, "run"));

            assertEquals(44 + release, new ClassReader(loader.results.get(COMPILED + "Program").bytes()).readShort(6));
            assertEquals(1, loader.results.get(COMPILED + "Program$Inner").counts().get(Kind.DIRECT_UNINITIALIZED_THIS));
            assertEquals(List.of("staticFault Named.class", "staticFault Named.class"), ObjectSpaceCalls.calls("staticFault"),
                    "NAMES read in the lambda and in register");
            assertEquals(List.of("beforeVolatileRead Box", "afterVolatileRead", "beforeVolatileWrite Box Box.total", "afterVolatileWrite Box Box.total",
                    "beforeVolatileRead Box", "afterVolatileRead", "beforeVolatileRead Box", "afterVolatileRead"),
                    ObjectSpaceCalls.calls("beforeVolatileRead", "afterVolatileRead", "beforeVolatileWrite", "afterVolatileWrite"));
            assertTrue(ObjectSpaceCalls.calls("runClassInitializer").containsAll(List.of(
                    "runClassInitializer Program.class", "runClassInitializer Named.class", "runClassInitializer Mode.class")),
                    ObjectSpaceCalls.calls("runClassInitializer").toString());
        }
    }

    @Test
    void classesWithNothingToRewriteAreLeftAlone() {
        Result marker = rewriter.rewrite(bytesOf(SUBJECTS + "$Marker"));
        assertNull(marker.bytes());
        assertEquals(Map.of(), marker.counts().asMap());
        assertFalse(rewriter.rewrite(bytesOf(RecordingHooks.OWNER)).changed(), "not an application class");
    }
}
