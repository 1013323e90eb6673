package dist.rewriter;

import dist.rewriter.RewriteCounts.Kind;
import java.util.Map;
import java.util.function.Predicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Prepares one application class for the global object space: state fields ({@link ObjectStateInjector}),
 * guarded field accesses ({@link FieldAccessRewriter}) and class initializers the runtime can veto
 * ({@link ClassInitializerRewriter}). Holds no runtime state; every runtime decision is a call to a
 * static method of the hook class.
 *
 * <p>Frames stay correct without a class hierarchy: replacing a field instruction by a static call
 * with the same stack effect and the same operand types leaves every existing frame valid, so the
 * writer only recomputes maxima, and the few new branch targets get frames written by hand.
 *
 * <p>All per-class state lives in the visitors of one {@link #rewrite} call, so one instance can serve
 * concurrent class loads.
 */
public final class ObjectSpaceRewriter {
    /** The rewritten class file, or null when nothing applied, and what was done. */
    public static final class Result {
        private final byte[] bytes;
        private final Map<Kind, Integer> counts;

        Result(byte[] bytes, Map<Kind, Integer> counts) {
            this.bytes = bytes;
            this.counts = counts;
        }

        /** The rewritten class file, or null when the class is to be kept as it is. */
        public byte[] bytes() {
            return bytes;
        }

        public boolean changed() {
            return bytes != null;
        }

        public int count(Kind kind) {
            return counts.getOrDefault(kind, 0);
        }

        /** Only the kinds that occurred. */
        public Map<Kind, Integer> counts() {
            return counts;
        }

        @Override
        public String toString() {
            return counts.toString();
        }
    }

    private final String hookOwner;
    private final Predicate<String> isApplicationClass;
    private final FieldResolver fieldResolver;

    /**
     * @param hookOwner          internal name of the class holding the static hooks
     * @param isApplicationClass over internal names: which classes are transformed, so which owners get
     *                           guarded accesses and which superclasses already carry the state fields
     * @param fieldResolver      volatility of fields and interface-ness of owners, without class loading
     */
    public ObjectSpaceRewriter(String hookOwner, Predicate<String> isApplicationClass, FieldResolver fieldResolver) {
        this.hookOwner = hookOwner;
        this.isApplicationClass = isApplicationClass;
        this.fieldResolver = fieldResolver;
    }

    /**
     * @return the rewritten class, or a result without bytes when the class is not an application
     *         class or nothing applied
     * @throws RuntimeException from ASM or {@link IllegalArgumentException} from the constructor analysis
     *         when the class file cannot be rewritten (malformed code, a method grown past 64 KiB); the
     *         class must then be left as it is, since a partial rewrite would be inconsistent
     */
    public Result rewrite(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        RewriteCounts counts = new RewriteCounts();
        if (!isApplicationClass.test(reader.getClassName()) || (reader.getAccess() & Opcodes.ACC_MODULE) != 0) {
            return new Result(null, counts.asMap());
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        // The initializer rewriter comes first so that it counts only the class's own static fields,
        // not the injected $dist$sstate.
        HookCalls hooks = new HookCalls(hookOwner);
        ClassVisitor chain = new ObjectStateInjector(writer, hooks, isApplicationClass, counts);
        chain = new FieldAccessRewriter(chain, hooks, isApplicationClass, fieldResolver, counts);
        chain = new ClassInitializerRewriter(chain, hooks, counts);
        reader.accept(chain, ClassReader.EXPAND_FRAMES);
        return new Result(counts.changed() ? writer.toByteArray() : null, counts.asMap());
    }
}
