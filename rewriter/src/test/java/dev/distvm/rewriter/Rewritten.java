package dev.distvm.rewriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * A fresh class loader that defines a subject class and its nested classes rewritten for
 * {@link RecordingHooks} (each verified first), and everything else from the test's loader. The
 * subjects are the application classes: they get the whole pipeline, the object space's rewrites too;
 * the home's, or a worker's ({@link #onWorker}), which adds the array read hooks.
 */
final class Rewritten extends ClassLoader {
    /** What the concurrency visitors do; the object-space rewrites, which every subject gets, are checked elsewhere. */
    private static final Set<Kind> CONCURRENCY = EnumSet.range(Kind.MONITOR_ENTER, Kind.SERIALIZABLE_LAMBDA);

    private final String root;
    private final ClassRewriter rewriter;
    private final UnaryOperator<byte[]> beforeRewrite;
    private final UnaryOperator<byte[]> afterRewrite;
    private final Map<String, RewriteCounts> counts = new ConcurrentHashMap<>();

    Rewritten(Class<?> root) {
        this(root, UnaryOperator.identity());
    }

    /** @param beforeRewrite applied to each original class file, to vary its version */
    Rewritten(Class<?> root, UnaryOperator<byte[]> beforeRewrite) {
        this(root, beforeRewrite, UnaryOperator.identity());
    }

    /** @param afterRewrite applied to each class file the rewriter changed, before it is verified and defined */
    Rewritten(Class<?> root, UnaryOperator<byte[]> beforeRewrite, UnaryOperator<byte[]> afterRewrite) {
        this(root, LoadedClasses.OF_TESTS.rewriter(subjects(root)), beforeRewrite, afterRewrite);
    }

    private Rewritten(Class<?> root, ClassRewriter rewriter, UnaryOperator<byte[]> beforeRewrite,
            UnaryOperator<byte[]> afterRewrite) {
        super(Rewritten.class.getClassLoader());
        this.root = root.getName();
        this.rewriter = rewriter;
        this.beforeRewrite = beforeRewrite;
        this.afterRewrite = afterRewrite;
    }

    /** {@code root} and its nested classes rewritten as on a worker, with the array read hooks. */
    static Rewritten onWorker(Class<?> root) {
        return onWorker(root, UnaryOperator.identity());
    }

    /** @param beforeRewrite applied to each original class file, to vary its version */
    static Rewritten onWorker(Class<?> root, UnaryOperator<byte[]> beforeRewrite) {
        return new Rewritten(root, LoadedClasses.OF_TESTS.workerRewriter(subjects(root)), beforeRewrite,
                UnaryOperator.identity());
    }

    /** {@code root} and its nested classes, which are what a {@code Rewritten} defines. */
    private static Predicate<String> subjects(Class<?> root) {
        String name = Type.getInternalName(root);
        return internalName -> internalName.equals(name) || internalName.startsWith(name + "$");
    }

    /** The rewritten class file of {@code subject}, taken as {@link #rewrite(Class, byte[])} says. */
    static byte[] rewrite(Class<?> subject) {
        return rewrite(subject, bytesOf(subject));
    }

    /** {@code classFile} rewritten as the class {@code subject} and its nested classes are in a {@code Rewritten}. */
    static byte[] rewrite(Class<?> subject, byte[] classFile) {
        return LoadedClasses.OF_TESTS.rewriter(subjects(subject)).rewrite(classFile).bytes();
    }

    /** The class file of {@code subject} rewritten as on a worker. */
    static byte[] rewriteOnWorker(Class<?> subject) {
        return LoadedClasses.OF_TESTS.workerRewriter(subjects(subject)).rewrite(bytesOf(subject)).bytes();
    }

    static byte[] bytesOf(Class<?> type) {
        return bytesOf(type.getName());
    }

    private static byte[] bytesOf(String className) {
        try (InputStream in = Rewritten.class.getResourceAsStream("/" + className.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The class file with another version number (and without frames below Java 6, which had none). */
    static byte[] withVersion(byte[] classFile, int version) {
        ClassWriter writer = new ClassWriter(0);
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int ignored, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(version, access, name, signature, superName, interfaces);
            }
        }, version < Opcodes.V1_6 ? ClassReader.SKIP_FRAMES : 0);
        return writer.toByteArray();
    }

    static void assertVerifies(byte[] classFile) {
        StringWriter problems = new StringWriter();
        CheckClassAdapter.verify(new ClassReader(classFile), Rewritten.class.getClassLoader(), false, new PrintWriter(problems));
        assertEquals("", problems.toString());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(root) && !name.startsWith(root + "$")) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded != null) {
                return loaded;
            }
            byte[] original = beforeRewrite.apply(bytesOf(name));
            ClassRewriter.Result result = rewriter.rewrite(original);
            counts.put(name, result.counts());
            byte[] bytes = result.bytes() == null ? original : afterRewrite.apply(result.bytes());
            assertVerifies(bytes);
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    Class<?> load(Class<?> original) {
        try {
            return loadClass(original.getName());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** What the rewriter did to a class loaded here. */
    RewriteCounts counts(Class<?> original) {
        load(original);
        return counts.get(original.getName());
    }

    /** What the concurrency visitors did to a class loaded here, per kind that occurred. */
    Map<Kind, Integer> concurrencyCounts(Class<?> original) {
        Map<Kind, Integer> selected = new EnumMap<>(Kind.class);
        counts(original).asMap().forEach((kind, count) -> {
            if (CONCURRENCY.contains(kind)) {
                selected.put(kind, count);
            }
        });
        return selected;
    }

    /** Runs a public static method of the rewritten root class; exceptions come out unwrapped. */
    Object call(String method, Object... arguments) throws Throwable {
        Class<?> type = loadClass(root);
        for (Method candidate : type.getMethods()) {
            if (candidate.getName().equals(method) && candidate.getParameterCount() == arguments.length) {
                try {
                    return candidate.invoke(null, arguments);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
        throw new AssertionError("no method " + method + " in " + root);
    }
}
