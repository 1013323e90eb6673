package dev.distvm.rewriter;

/**
 * Whether a call on an application class may run JDK code: the method is declared by none of the
 * application classes from the owner up, so it is inherited from a JDK superclass (other than
 * {@code Object}), whose code is not rewritten. Answered by the caller without loading classes.
 */
@FunctionalInterface
public interface JdkInheritance {
    boolean inheritedFromJdk(String owner, String name, String descriptor);
}
