package dev.distvm.rewriter;

/**
 * Which classes are the application's, and so transformed: not the JDK's, not dist's own (and its
 * relocated dependencies), and not classes without a name (hidden classes are handled with their
 * defining class).
 */
public final class ApplicationClasses {
    private static final String[] SYSTEM_PREFIXES = {
        "java/", "javax/", "jdk/", "sun/", "com/sun/", "dev/distvm/", "org/ietf/", "org/w3c/", "org/xml/",
    };

    private ApplicationClasses() {}

    /**
     * @param internalName  the class's internal name, or null for an unnamed class
     * @param fromBootOrPlatform whether the defining loader is the boot or platform loader
     */
    public static boolean isApplicationClass(String internalName, boolean fromBootOrPlatform) {
        if (internalName == null || fromBootOrPlatform) {
            return false;
        }
        for (String prefix : SYSTEM_PREFIXES) {
            if (internalName.startsWith(prefix)) {
                return false;
            }
        }
        return true;
    }
}
