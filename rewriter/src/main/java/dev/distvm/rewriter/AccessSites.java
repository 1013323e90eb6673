package dev.distvm.rewriter;

/**
 * Numbers the access sites the profiling rewrite finds ({@link AccessProfilingRewriter}): the
 * caller keeps what each number means, the rewrite only embeds the numbers.
 */
public interface AccessSites {
    /** What a site does. */
    enum Kind {
        FIELD_READ, FIELD_WRITE, STATIC_READ, STATIC_WRITE, ARRAY_READ, ARRAY_WRITE, MONITOR_ENTER, SYNCHRONIZED_METHOD
    }

    /**
     * @param kind      what the site does
     * @param target    the field's owner and name ({@code pkg/Owner.name}) for a field site, the
     *                  array's element descriptor for an array site, the method's class for a monitor site
     * @param className internal name of the class whose code holds the site
     * @param method    the method holding the site
     * @param sourceFile the class's source file, or null if the class file does not say
     * @param line      the source line, or 0 if the class file has no line numbers there
     * @return the number the rewritten code passes to the hook for this site
     */
    int register(Kind kind, String target, String className, String method, String sourceFile, int line);
}
