package dev.distvm.rewriter;

/**
 * What a field instruction does not say about its owner, answered without loading classes (the agent
 * reads class files; tests may use maps or reflection on classes they already have).
 */
public interface FieldResolver {
    /**
     * Whether {@code owner.name:descriptor}, resolved as the JVM resolves it (through superclasses and
     * superinterfaces), is a volatile field.
     */
    boolean isVolatile(String owner, String name, String descriptor);

    /**
     * Whether {@code owner} is an interface: static fields of an interface cannot be guarded by a
     * {@code $dist$sstate} field because interfaces do not get one.
     */
    boolean isInterface(String owner);

    /**
     * The class whose statics hold static field {@code owner.name:descriptor}, resolved as the JVM
     * resolves it, when code in {@code accessor} may name that class (it is public or in the same
     * package) and it is a class, not an interface; null when a superclass of {@code owner} that
     * {@code accessor} may not name declares it; otherwise {@code owner}. A static named through a
     * subclass ({@code Sub.total}, declared by {@code Base}) lives in {@code Base}'s statics, whose
     * state the rewritten code must check and whose writes it must report.
     */
    String staticsHolder(String owner, String name, String descriptor, String accessor);

    /** Whether code in {@code accessor} may name class {@code target} (the class's access flags say public, or one package). */
    static boolean mayName(int targetAccess, String target, String accessor) {
        return (targetAccess & org.objectweb.asm.Opcodes.ACC_PUBLIC) != 0 || packageOf(target).equals(packageOf(accessor));
    }

    private static String packageOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? "" : internalName.substring(0, slash);
    }
}
