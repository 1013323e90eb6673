package dev.distvm.objectspace;

/** A class whose instances the object space cannot keep coherent across nodes, and why. */
public final class UnsharableException extends RuntimeException {
    private final String className;

    UnsharableException(Class<?> type, String reason) {
        super("instances of " + type.getName() + " cannot be shared between nodes: " + reason);
        this.className = type.getName();
    }

    public String className() {
        return className;
    }
}
