package dev.distvm.rewriter;

/** A lock or value that shows up by name in recorded hook calls. */
public final class Named {
    private final String name;

    public Named(String name) {
        this.name = name;
    }

    @Override
    public String toString() {
        return name;
    }
}
