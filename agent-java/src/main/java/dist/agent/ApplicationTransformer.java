package dist.agent;

import dist.gos.Hooks;
import dist.rewriter.ApplicationClasses;
import dist.rewriter.ConcurrencyRewriter;
import dist.rewriter.ObjectSpaceRewriter;
import dist.transport.Log;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.function.Predicate;

/**
 * Applies the rewriter's transformations to application classes as the JVM defines them, on the
 * home and on workers alike. A class that cannot be transformed runs unchanged, with a warning.
 */
final class ApplicationTransformer implements ClassFileTransformer {
    private static final String HOOKS = Hooks.class.getName().replace('.', '/');
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
    private static final Predicate<String> APPLICATION = name -> ApplicationClasses.isApplicationClass(name, false);

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (!ApplicationClasses.isApplicationClass(className, loader == null || loader == PLATFORM)) {
            return null;
        }
        try {
            ClassHierarchy hierarchy = new ClassHierarchy(loader);
            byte[] objectSpace = new ObjectSpaceRewriter(HOOKS, APPLICATION, hierarchy).rewrite(bytes).bytes();
            byte[] input = objectSpace != null ? objectSpace : bytes;
            byte[] concurrency = new ConcurrencyRewriter(HOOKS, hierarchy::isThread).rewrite(input).bytes();
            return concurrency != null ? concurrency : objectSpace;
        } catch (RuntimeException | LinkageError e) {
            Log.warn("could not transform " + className + " (" + e + "); it runs unchanged");
            return null;
        }
    }
}
