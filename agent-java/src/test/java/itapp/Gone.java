package itapp;

/** Removed from the class path by the tests, to see the same linkage error remotely as locally. */
final class Gone {
    private Gone() {}

    static String name() {
        return "gone";
    }
}
