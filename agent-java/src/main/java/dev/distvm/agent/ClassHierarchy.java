package dev.distvm.agent;

import java.io.IOException;
import java.io.InputStream;
import dev.distvm.rewriter.FieldResolver;
import dev.distvm.rewriter.JdkInheritance;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Answers "is this class a Thread?", "is this field volatile?" and "is this an interface?" while a
 * class is being transformed, without loading application classes (loading them from inside a transformer risks circularity errors): their
 * superclass chain is read from the class files. JDK classes are loaded, which is safe.
 */
final class ClassHierarchy implements FieldResolver, JdkInheritance {
    private static final int MAX_DEPTH = 64;
    private final ClassLoader loader;
    private final Map<String, ClassReader> read = new HashMap<>();

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

    /**
     * Whether a call of {@code name descriptor} on the application class {@code owner} may run JDK
     * code: no application class from {@code owner} up declares it, and a JDK class other than
     * {@code Object} is among the superclasses (read from the class files, as the rest).
     */
    @Override
    public boolean inheritedFromJdk(String owner, String name, String descriptor) {
        String current = owner;
        for (int depth = 0; depth < MAX_DEPTH && current != null; depth++) {
            if (isJdk(current)) {
                return !current.equals("java/lang/Object");
            }
            ClassReader reader = read(current);
            if (reader == null || declares(reader, name, descriptor)) {
                return false;
            }
            current = reader.getSuperName();
        }
        return false;
    }

    private static boolean declares(ClassReader reader, String name, String descriptor) {
        boolean[] found = {false};
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public org.objectweb.asm.MethodVisitor visitMethod(int access, String method, String desc, String signature,
                                                               String[] exceptions) {
                found[0] |= method.equals(name) && desc.equals(descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found[0];
    }

    @Override
    public boolean isInterface(String internalName) {
        if (isJdk(internalName)) {
            Class<?> jdk = jdkClass(internalName);
            return jdk != null && jdk.isInterface();
        }
        ClassReader reader = read(internalName);
        return reader != null && (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0;
    }

    /** Resolves the field as the JVM would (the class, its interfaces, then its superclass). */
    @Override
    public boolean isVolatile(String owner, String name, String descriptor) {
        return volatileIn(owner, name, descriptor, 0);
    }

    private boolean volatileIn(String owner, String name, String descriptor, int depth) {
        if (owner == null || depth > MAX_DEPTH) {
            return false;
        }
        if (isJdk(owner)) {
            Class<?> jdk = jdkClass(owner);
            for (Class<?> c = jdk; c != null; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (field.getName().equals(name)) {
                        return Modifier.isVolatile(field.getModifiers());
                    }
                }
            }
            return false;
        }
        ClassReader reader = read(owner);
        if (reader == null) {
            return false;
        }
        int access = fieldAccess(reader, name, descriptor);
        if (access >= 0) {
            return (access & Opcodes.ACC_VOLATILE) != 0;
        }
        for (String implemented : reader.getInterfaces()) {
            if (volatileIn(implemented, name, descriptor, depth + 1)) {
                return true;
            }
        }
        return volatileIn(reader.getSuperName(), name, descriptor, depth + 1);
    }

    @Override
    public String staticsHolder(String owner, String name, String descriptor, String accessor) {
        String current = owner;
        for (int depth = 0; depth < MAX_DEPTH && current != null && !isJdk(current); depth++) {
            ClassReader reader = read(current);
            if (reader == null) {
                return owner;
            }
            int fieldAccess = fieldAccess(reader, name, descriptor);
            if (fieldAccess >= 0) {
                boolean isClass = (reader.getAccess() & Opcodes.ACC_INTERFACE) == 0;
                if ((fieldAccess & Opcodes.ACC_STATIC) == 0 || !isClass || current.equals(owner)) {
                    return owner;
                }
                return FieldResolver.mayName(reader.getAccess(), current, accessor) ? current : null;
            }
            for (String implemented : reader.getInterfaces()) {
                if (interfaceDeclares(implemented, name, descriptor, depth + 1)) {
                    return owner; // an interface's constant, which the JVM finds first: left as named
                }
            }
            current = reader.getSuperName();
        }
        return owner;
    }

    private boolean interfaceDeclares(String type, String name, String descriptor, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        if (isJdk(type)) {
            Class<?> jdk = jdkClass(type);
            try {
                return jdk != null && jdk.getField(name) != null;
            } catch (NoSuchFieldException | SecurityException e) {
                return false;
            }
        }
        ClassReader reader = read(type);
        if (reader == null) {
            return false;
        }
        if (fieldAccess(reader, name, descriptor) >= 0) {
            return true;
        }
        for (String inherited : reader.getInterfaces()) {
            if (interfaceDeclares(inherited, name, descriptor, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    /** The access flags of the field the class declares, or -1. */
    private static int fieldAccess(ClassReader reader, String name, String descriptor) {
        int[] access = {-1};
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int flags, String field, String desc, String signature, Object value) {
                if (field.equals(name) && desc.equals(descriptor)) {
                    access[0] = flags;
                }
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return access[0];
    }

    private static Class<?> jdkClass(String internalName) {
        try {
            return Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /**
     * Class files read once per transformation: every field and call site of a class asks about the
     * same owners. A class file that is not there is null (the JVM fails the same way when it needs
     * it); one that could not be read (on a worker: the home did not answer) fails the rewriting,
     * since an answer guessed without it (not volatile, not a thread) would rewrite the class wrongly.
     */
    private ClassReader read(String internalName) {
        if (loader == null) {
            return null;
        }
        if (read.containsKey(internalName)) {
            return read.get(internalName);
        }
        ClassReader reader;
        try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
            reader = in == null ? null : new ClassReader(in);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the class file of " + internalName.replace('/', '.') + ": " + e, e);
        }
        read.put(internalName, reader);
        return reader;
    }

    private static boolean isJdk(String internalName) {
        return internalName.startsWith("java/") || internalName.startsWith("javax/")
                || internalName.startsWith("jdk/") || internalName.startsWith("sun/");
    }

    private static boolean jdkClassIsThread(String internalName) {
        Class<?> jdk = jdkClass(internalName);
        return jdk != null && Thread.class.isAssignableFrom(jdk);
    }

    private String superNameOf(String internalName) {
        ClassReader reader = read(internalName);
        return reader == null ? null : reader.getSuperName();
    }
}
