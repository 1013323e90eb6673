package dev.distvm.agent;

import dev.distvm.node.StartupException;
import dev.distvm.objectspace.ObjectSpace;
import dev.distvm.rewriter.ApplicationClasses;
import dev.distvm.rewriter.ClassRewriter;
import dev.distvm.rewriter.NativeMethodRewriter;
import dev.distvm.rewriter.RuntimeHooks;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.function.Predicate;

/**
 * Applies the rewriter's transformations to application classes as the JVM defines them, on the
 * home and on workers alike. A class that cannot be transformed ends the run with the reason: unchanged,
 * it would compute wrongly without a word.
 */
final class ApplicationTransformer implements ClassFileTransformer {
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
    private static final Predicate<String> APPLICATION = name -> ApplicationClasses.isApplicationClass(name, false);

    private ApplicationTransformer() {}

    /**
     * Transforms every application class defined from now on. The rewriter renames native methods
     * behind wrappers ({@link NativeMethodRewriter}); registering its prefix with the JVM, before
     * any such class can link a native, is what keeps them linked to their native code.
     */
    static void install(Instrumentation instrumentation) {
        if (!instrumentation.isNativeMethodPrefixSupported()) {
            throw new StartupException("this JVM cannot set a native method prefix (JVMTI can_set_native_method_prefix),"
                    + " which dist needs to keep the native methods of application classes linked; run dist on a"
                    + " HotSpot JDK 17 or later, with the Can-Set-Native-Method-Prefix attribute dist.jar's manifest has");
        }
        ApplicationTransformer transformer = new ApplicationTransformer();
        instrumentation.addTransformer(transformer);
        instrumentation.setNativeMethodPrefix(transformer, NativeMethodRewriter.PREFIX);
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (!ApplicationClasses.isApplicationClass(className, loader == null || loader == PLATFORM)) {
            return null;
        }
        try {
            return rewrite(loader, bytes);
        } catch (RuntimeException | LinkageError e) {
            // Unchanged, its writes would not reach other nodes and its monitors and thread calls
            // would stay local: the run would compute wrongly and say nothing.
            ObjectSpace.cannotRunCoherently("dist could not rewrite class " + className.replace('/', '.') + " (" + e
                    + "), and without that it cannot run it coherently");
            return null;
        }
    }

    /** The class file as the program runs it: rewritten with the classes {@code loader} sees as its hierarchy. */
    static byte[] rewrite(ClassLoader loader, byte[] bytes) {
        return rewrite(loader, bytes, APPLICATION);
    }

    /**
     * Rewrites dist's own class {@code bytes} as if it were the program's, and throws the result
     * away: {@link #rewrite} leaves dist's classes alone, so a warm-up through it would run none of
     * the rewriter's code.
     */
    static void rewriteAsApplication(ClassLoader loader, byte[] bytes, String packagePrefix) {
        rewrite(loader, bytes, name -> APPLICATION.test(name) || name.startsWith(packagePrefix));
    }

    /** A worker's arrays may have chunks still at the home: its classes fault them in before they read them. */
    private static byte[] rewrite(ClassLoader loader, byte[] bytes, Predicate<String> isApplication) {
        ClassHierarchy hierarchy = new ClassHierarchy(loader);
        ClassRewriter rewriter = ObjectSpace.isWorker()
                ? ClassRewriter.forWorkers(RuntimeHooks.OWNER, isApplication, hierarchy, hierarchy::isThread, hierarchy)
                : new ClassRewriter(RuntimeHooks.OWNER, isApplication, hierarchy, hierarchy::isThread, hierarchy);
        ClassRewriter.Result result = rewriter.rewrite(bytes);
        ObjectSpace.allowCallsAtHome(result.counts().homeCalls());
        return result.bytes();
    }
}
