package dist.agent;

import dist.gos.Hooks;
import dist.rewriter.ApplicationClasses;
import dist.rewriter.ConcurrencyRewriter;
import dist.transport.Log;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;

/**
 * Applies the rewriter's transformations to application classes as the JVM defines them, on the
 * home and on workers alike. A class that cannot be transformed runs unchanged, with a warning.
 */
final class ApplicationTransformer implements ClassFileTransformer {
    private static final String HOOKS = Hooks.class.getName().replace('.', '/');
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (!ApplicationClasses.isApplicationClass(className, loader == null || loader == PLATFORM)) {
            return null;
        }
        try {
            return new ConcurrencyRewriter(HOOKS, new ClassHierarchy(loader)::isThread).rewrite(bytes).bytes();
        } catch (RuntimeException | LinkageError e) {
            Log.warn("could not transform " + className + " (" + e + "); it runs unchanged");
            return null;
        }
    }
}
