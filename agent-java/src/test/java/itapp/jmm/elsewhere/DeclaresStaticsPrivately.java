package itapp.jmm.elsewhere;

/** Package-private, so that code outside this package reaches its statics only through {@link NamedAcrossPackages}. */
class DeclaresStaticsPrivately {
    public static long total;
    public static volatile int stage;
}
