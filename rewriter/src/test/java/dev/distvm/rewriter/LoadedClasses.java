package dev.distvm.rewriter;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.Predicate;

/**
 * Answers the rewriter's questions about other classes by reflection on the untransformed classes
 * a loader has (the agent reads class files instead); classes generated in a test are unknown to
 * it, which is harmless because they only access their own non-volatile fields.
 */
final class LoadedClasses implements FieldResolver {
    static final LoadedClasses OF_TESTS = new LoadedClasses(LoadedClasses.class.getClassLoader());

    private final ClassLoader originals;

    LoadedClasses(ClassLoader originals) {
        this.originals = originals;
    }

    /** The pipeline for test subjects: their hooks go to {@link RecordingHooks}. */
    ClassRewriter rewriter(Predicate<String> isSubject) {
        return new ClassRewriter(RecordingHooks.OWNER, isSubject, this, this::isThread, this::inheritedFromJdk);
    }

    /** A worker's pipeline for test subjects: the home's plus the array read hooks. */
    ClassRewriter workerRewriter(Predicate<String> isSubject) {
        return ClassRewriter.forWorkers(RecordingHooks.OWNER, isSubject, this, this::isThread, this::inheritedFromJdk);
    }

    @Override
    public boolean isVolatile(String owner, String name, String descriptor) {
        for (Class<?> type = load(owner); type != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    return Modifier.isVolatile(field.getModifiers());
                }
            }
        }
        return false;
    }

    @Override
    public String staticsHolder(String owner, String name, String descriptor, String accessor) {
        for (Class<?> type = load(owner); type != null && type.getClassLoader() != null; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    String internalName = type.getName().replace('.', '/');
                    if (!Modifier.isStatic(field.getModifiers()) || type.isInterface() || internalName.equals(owner)) {
                        return owner;
                    }
                    return FieldResolver.mayName(type.getModifiers(), internalName, accessor) ? internalName : null;
                }
            }
            for (Class<?> implemented : type.getInterfaces()) {
                try {
                    implemented.getField(name);
                    return owner; // an interface's constant, which the JVM finds first
                } catch (NoSuchFieldException e) {
                    // not there: on to the superclass
                }
            }
        }
        return owner;
    }

    @Override
    public boolean isInterface(String owner) {
        Class<?> type = load(owner);
        return type != null && type.isInterface();
    }

    boolean isThread(String internalName) {
        Class<?> type = load(internalName);
        return type != null && Thread.class.isAssignableFrom(type);
    }

    boolean inheritedFromJdk(String owner, String name, String descriptor) {
        for (Class<?> c = load(owner); c != null; c = c.getSuperclass()) {
            if (c.getClassLoader() == null) {
                return c != Object.class;
            }
            for (java.lang.reflect.Method method : c.getDeclaredMethods()) {
                if (method.getName().equals(name) && org.objectweb.asm.Type.getMethodDescriptor(method).equals(descriptor)) {
                    return false;
                }
            }
        }
        return false;
    }

    private Class<?> load(String internalName) {
        try {
            return Class.forName(internalName.replace('/', '.'), false, originals);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }
}
