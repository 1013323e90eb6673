package dist.rewriter;

import java.util.function.Predicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;

/**
 * The single-system-image rewrites of native methods, monitors, synchronized methods, wait/notify,
 * thread life cycle and JVM exit in one application class (see the rewriter/runtime contract):
 * every such operation becomes a call of a static method of the hook class, which the runtime
 * implements.
 *
 * <p>None of the visitors adds a branch to existing code and the methods they generate are
 * straight-line or carry their own frame, so frames are neither expanded nor computed and no class
 * is ever loaded.
 */
public final class ConcurrencyRewriter {
    /** The rewritten class, or null when nothing applied (keep the original bytes); what was done. */
    public record Result(byte[] bytes, RewriteCounts counts) {}

    private final String hookOwner;
    private final Predicate<String> isThread;

    /**
     * @param hookOwner internal name of the class whose static methods the rewritten code calls
     * @param isThread  whether an internal name denotes {@code java/lang/Thread} or a subclass
     */
    public ConcurrencyRewriter(String hookOwner, Predicate<String> isThread) {
        this.hookOwner = hookOwner;
        this.isThread = isThread;
    }

    /**
     * The visitor chain, for composing with other rewrites; the writer at the end needs
     * {@code COMPUTE_MAXS}. Native methods are wrapped first, so that the wrapper of a
     * {@code synchronized native} method is split like any synchronized method; synchronized methods
     * are split next, so that the monitor instructions of their wrappers get the same hooks as those
     * of synchronized blocks.
     */
    public ClassVisitor visitor(ClassVisitor next, RewriteCounts counts) {
        HookCalls hooks = new HookCalls(hookOwner);
        ClassVisitor calls = new CallSiteRewriter(new RunnableLambdaRewriter(next, counts), hooks, isThread, counts);
        ClassVisitor monitors = new MonitorRewriter(calls, hooks, counts);
        return new NativeMethodRewriter(new SynchronizedMethodRewriter(monitors, counts), hooks, counts);
    }

    public Result rewrite(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        RewriteCounts counts = new RewriteCounts();
        reader.accept(visitor(writer, counts), 0);
        return new Result(counts.changed() ? writer.toByteArray() : null, counts);
    }
}
