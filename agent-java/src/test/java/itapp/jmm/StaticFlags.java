package itapp.jmm;

/** Volatile statics that threads on every node spin on and write: their values are the home's. */
final class StaticFlags {
    /** Set by the class initializer, which runs once, at the home: a worker must see 7, not 0. */
    static volatile int initial = Integer.parseInt("7");
    static volatile boolean go;
    /** Whose turn it is: thread i waits for i, then hands over to i + 1. */
    static volatile int turn;

    private StaticFlags() {}
}
