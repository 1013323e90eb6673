package dev.distvm.rewriter;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * The rewriter's one entry point: prepares one application class for the single system image in
 * one read and one write of its class file. Every runtime decision becomes a call of a static
 * method of the hook class ({@link RuntimeHooks}); whatever the rewrite must know about other
 * classes is asked of the caller's predicates and {@link FieldResolver}, so the rewriter holds no
 * runtime state and loads no class.
 *
 * <p>Frames stay correct without a class hierarchy: every visitor keeps the existing frames valid
 * (a replaced instruction has the same stack effect and operand types as the original, moved code
 * keeps its method's first frame) and writes the frames of the few branch targets it adds by hand,
 * so the writer only recomputes maxima. Those frames are expanded ({@code F_NEW}), and a method's
 * frames must be all expanded or all compressed, so the reader expands the class's own.
 *
 * <p>All per-class state lives in the visitors of one {@link #rewrite} call, so one instance can serve
 * concurrent class loads.
 */
public final class ClassRewriter {
    /** The rewritten class file, or null when nothing applied (keep the original bytes); what was done. */
    public record Result(byte[] bytes, RewriteCounts counts) {
        public boolean changed() {
            return bytes != null;
        }
    }

    private final HookCalls hooks;
    private final Predicate<String> isApplicationClass;
    private final FieldResolver fieldResolver;
    private final Predicate<String> isThread;
    private final JdkInheritance jdkInheritance;
    private final boolean arrayReadsMayFault;

    /**
     * @param hookOwner          internal name of the class implementing {@link RuntimeHooks}: {@link RuntimeHooks#OWNER}
     *                           in the agent, a stand-in in tests
     * @param isApplicationClass over internal names: which classes are transformed, so which owners get
     *                           guarded accesses and which superclasses already carry the state fields
     * @param fieldResolver      volatility of fields and interface-ness of owners, without class loading
     * @param isThread           over internal names: {@code java/lang/Thread} or a subclass, without class loading
     * @param jdkInheritance     whether a method called on an application class is one it inherits from a JDK
     *                           class (whose code is not rewritten), without class loading
     */
    public ClassRewriter(String hookOwner, Predicate<String> isApplicationClass, FieldResolver fieldResolver,
            Predicate<String> isThread, JdkInheritance jdkInheritance) {
        this(hookOwner, isApplicationClass, fieldResolver, isThread, jdkInheritance, false);
    }

    private ClassRewriter(String hookOwner, Predicate<String> isApplicationClass, FieldResolver fieldResolver,
            Predicate<String> isThread, JdkInheritance jdkInheritance, boolean arrayReadsMayFault) {
        this.hooks = new HookCalls(hookOwner);
        this.isApplicationClass = isApplicationClass;
        this.fieldResolver = fieldResolver;
        this.isThread = isThread;
        this.jdkInheritance = jdkInheritance;
        this.arrayReadsMayFault = arrayReadsMayFault;
    }

    /**
     * The rewriter for a worker, whose shared primitive arrays may arrive with chunks still at the
     * home: as the constructor's (the home's), plus {@link ArrayReadRewriter}'s hooks before every
     * primitive element read and every call that hands arrays to JDK code. Parameters as the
     * constructor's; for example, in the agent:
     * <pre>{@code
     * ClassRewriter rewriter = ClassRewriter.forWorkers(RuntimeHooks.OWNER, isApplication, hierarchy,
     *         hierarchy::isThread, hierarchy);
     * }</pre>
     */
    public static ClassRewriter forWorkers(String hookOwner, Predicate<String> isApplicationClass,
            FieldResolver fieldResolver, Predicate<String> isThread, JdkInheritance jdkInheritance) {
        return new ClassRewriter(hookOwner, isApplicationClass, fieldResolver, isThread, jdkInheritance, true);
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
            return new Result(null, counts);
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(chain(writer, counts), ClassReader.EXPAND_FRAMES);
        return new Result(counts.changed() ? writer.toByteArray() : null, counts);
    }

    /**
     * The visitors, in the order the class's events pass through them on their way to the writer.
     * Why this order:
     * <ul>
     *   <li>{@link ClassInitializerRewriter} first, so that it counts only the class's own static fields,
     *       not the {@code $dist$sstate} that {@link ObjectStateInjector} adds.
     *   <li>The object-space visitors before the concurrency ones, which so see the class as compiled
     *       plus the access helpers and initializer prologues, none holding an instruction they rewrite.
     *   <li>{@link NativeMethodRewriter} before {@link SynchronizedMethodRewriter}, so that the wrapper of
     *       a {@code synchronized native} method is split like any synchronized method.
     *   <li>{@link SynchronizedMethodRewriter} before {@link MonitorRewriter}, so that the monitor
     *       instructions of its wrappers get the same hooks as those of synchronized blocks.
     *   <li>{@link ArrayReadRewriter} (workers only) before {@link ArrayPassingRewriter}, so that it sees
     *       the calls of JDK code as compiled, not the {@code $dist$pass$} helpers that hide them; the
     *       later visitors leave its hook calls alone, as every call of a class under {@code dev/distvm/}.
     *   <li>{@link ArrayPassingRewriter} before {@link CallSiteRewriter}, so that it sees the calls as
     *       compiled, not the hooks that replace some of them.
     * </ul>
     */
    private ClassVisitor chain(ClassWriter writer, RewriteCounts counts) {
        List<UnaryOperator<ClassVisitor>> inEventOrder = List.of(
                next -> new ClassInitializerRewriter(next, hooks, counts),
                next -> new FieldAccessRewriter(next, hooks, isApplicationClass, fieldResolver, counts),
                next -> new ObjectStateInjector(next, hooks, isApplicationClass, counts),
                next -> new NativeMethodRewriter(next, hooks, counts),
                next -> new SynchronizedMethodRewriter(next, hooks, isThread, counts),
                next -> new MonitorRewriter(next, hooks, counts),
                next -> arrayReadsMayFault
                        ? new ArrayReadRewriter(next, hooks, isApplicationClass, jdkInheritance, counts) : next,
                next -> new ArrayStoreRewriter(next, hooks, counts, arrayReadsMayFault),
                next -> new ArrayPassingRewriter(next, hooks, isApplicationClass, jdkInheritance, counts),
                next -> new CallSiteRewriter(next, hooks, isThread, counts),
                next -> new SerializableLambdaRewriter(next, counts));
        ClassVisitor chain = writer;
        for (int i = inEventOrder.size() - 1; i >= 0; i--) {
            chain = inEventOrder.get(i).apply(chain);
        }
        return chain;
    }
}
