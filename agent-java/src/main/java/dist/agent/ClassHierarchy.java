package dist.agent;

import java.io.IOException;
import java.io.InputStream;
import org.objectweb.asm.ClassReader;

/**
 * Answers "is this class a Thread?" while a class is being transformed, without loading
 * application classes (loading them from inside a transformer risks circularity errors): their
 * superclass chain is read from the class files. JDK classes are loaded, which is safe.
 */
final class ClassHierarchy {
    private static final int MAX_DEPTH = 64;
    private final ClassLoader loader;

    ClassHierarchy(ClassLoader loader) {
        this.loader = loader;
    }

    boolean isThread(String internalName) {
        String current = internalName;
        for (int depth = 0; depth < MAX_DEPTH && current != null; depth++) {
            if (current.equals("java/lang/Thread")) {
                return true;
            }
            if (isJdk(current)) {
                return jdkClassIsThread(current);
            }
            current = superNameOf(current);
        }
        return false;
    }

    private static boolean isJdk(String internalName) {
        return internalName.startsWith("java/") || internalName.startsWith("javax/")
                || internalName.startsWith("jdk/") || internalName.startsWith("sun/");
    }

    private static boolean jdkClassIsThread(String internalName) {
        try {
            return Thread.class.isAssignableFrom(
                    Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private String superNameOf(String internalName) {
        if (loader == null) {
            return null;
        }
        try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
            return in == null ? null : new ClassReader(in).getSuperName();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
