package itapp.jmm;

/** A class initializer with an effect: it must run once in the whole cluster. */
final class Initialized {
    static int runs;
    static final int ID;

    static {
        runs++;
        ID = runs;
    }

    private Initialized() {}
}
