package dist.agent;

import dist.rewriter.ApplicationClasses;
import dist.rewriter.ThreadStartRewriter;
import dist.transport.Log;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

/**
 * Applies the rewriter's transformations to application classes as the JVM defines them, on the
 * home and on workers alike. A class that cannot be transformed runs unchanged, with a warning.
 */
final class ApplicationTransformer implements ClassFileTransformer {
    private static final String THREAD_HOOKS = ThreadHooks.class.getName().replace('.', '/');
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (!ApplicationClasses.isApplicationClass(className, loader == null || loader == PLATFORM)) {
            return null;
        }
        try {
            ClassReader reader = new ClassReader(bytes);
            ClassWriter writer = new ClassWriter(reader, 0);
            ThreadStartRewriter rewriter =
                    new ThreadStartRewriter(writer, new ClassHierarchy(loader)::isThread, THREAD_HOOKS);
            reader.accept(rewriter, 0);
            return rewriter.changed() ? writer.toByteArray() : null;
        } catch (RuntimeException | LinkageError e) {
            Log.warn("could not transform " + className + " (" + e + "); it runs unchanged");
            return null;
        }
    }
}
