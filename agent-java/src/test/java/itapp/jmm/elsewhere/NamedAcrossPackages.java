package itapp.jmm.elsewhere;

/** Has no statics of its own (and so no class initializer): every static named through it is its superclass's. */
public final class NamedAcrossPackages extends DeclaresStaticsPrivately {
    private NamedAcrossPackages() {}
}
