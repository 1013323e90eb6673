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
}
