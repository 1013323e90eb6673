package dist.rewriter;

import dist.rewriter.RewriteCounts.Kind;
import java.util.List;
import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Replaces calls whose effect the runtime must see or decide (wait/notify, thread life cycle,
 * current thread, sleep, identity hash codes, JVM exit) by {@code invokestatic} of the hook of the
 * same name; an instance call's receiver becomes the hook's first argument, so the operand stack is
 * the same before and after and existing frames stay valid.
 *
 * <p>Only {@code invokevirtual} instance calls are rewritten: {@code super.start()} inside an
 * overriding {@code start()} must stay, or the hook would see the thread twice. Whether an owner is a
 * {@code Thread} is answered by the caller's {@code isThread} predicate (internal names), which keeps
 * this visitor free of class loading. It is asked for static calls too, because javac names the
 * qualifying class as owner: an unqualified {@code sleep(10)} inside a {@code Thread} subclass
 * compiles to {@code invokestatic Subclass.sleep}.
 *
 * <p>Method references ({@code threads.forEach(Thread::start)}) reach the method through a handle
 * given to a bootstrap method rather than a call instruction; those handles are redirected too (a
 * static handle taking the receiver first has the same type as the virtual one).
 */
public final class CallSiteRewriter extends ClassVisitor {
    private record Site(int opcode, Predicate<String> owner, String name, String desc, String hook, String hookDesc, Kind kind) {
        boolean matches(int opcode, String owner, String name, String desc) {
            return this.opcode == opcode && this.name.equals(name) && this.desc.equals(desc) && this.owner.test(owner);
        }
    }

    private final String hookOwner;
    private final RewriteCounts counts;
    private final List<Site> sites;

    public CallSiteRewriter(ClassVisitor next, String hookOwner, Predicate<String> isThread, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hookOwner = hookOwner;
        this.counts = counts;
        Predicate<String> anyOwner = owner -> true;
        Predicate<String> system = "java/lang/System"::equals;
        Predicate<String> runtime = "java/lang/Runtime"::equals;
        String object = "java/lang/Object";
        String thread = "java/lang/Thread";
        String runtimeType = "java/lang/Runtime";
        this.sites = List.of(
                virtual(anyOwner, object, "wait", "()V", "wait", Kind.WAIT),
                virtual(anyOwner, object, "wait", "(J)V", "wait", Kind.WAIT),
                virtual(anyOwner, object, "wait", "(JI)V", "wait", Kind.WAIT),
                virtual(anyOwner, object, "notify", "()V", "notify", Kind.NOTIFY),
                virtual(anyOwner, object, "notifyAll", "()V", "notifyAll", Kind.NOTIFY),
                virtual(isThread, thread, "start", "()V", "start", Kind.THREAD_START),
                virtual(isThread, thread, "join", "()V", "join", Kind.THREAD_JOIN),
                virtual(isThread, thread, "join", "(J)V", "join", Kind.THREAD_JOIN),
                virtual(isThread, thread, "join", "(JI)V", "join", Kind.THREAD_JOIN),
                virtual(isThread, thread, "isAlive", "()Z", "isAlive", Kind.THREAD_IS_ALIVE),
                virtual(isThread, thread, "getState", "()Ljava/lang/Thread$State;", "threadState", Kind.THREAD_IS_ALIVE),
                virtual(isThread, thread, "getId", "()J", "threadId", Kind.THREAD_ID),
                virtual(isThread, thread, "threadId", "()J", "threadId", Kind.THREAD_ID),
                virtual(isThread, thread, "interrupt", "()V", "interrupt", Kind.THREAD_INTERRUPT),
                virtual(runtime, runtimeType, "exit", "(I)V", "exit", Kind.EXIT),
                virtual(runtime, runtimeType, "halt", "(I)V", "halt", Kind.EXIT),
                statik(isThread, "currentThread", "()Ljava/lang/Thread;", Kind.CURRENT_THREAD),
                statik(isThread, "sleep", "(J)V", Kind.SLEEP),
                statik(isThread, "sleep", "(JI)V", Kind.SLEEP),
                statik(system, "identityHashCode", "(Ljava/lang/Object;)I", Kind.IDENTITY_HASH_CODE),
                statik(system, "exit", "(I)V", Kind.EXIT));
    }

    private static Site virtual(Predicate<String> owner, String receiver, String name, String desc, String hook, Kind kind) {
        return new Site(Opcodes.INVOKEVIRTUAL, owner, name, desc, hook, "(L" + receiver + ";" + desc.substring(1), kind);
    }

    private static Site statik(Predicate<String> owner, String name, String desc, Kind kind) {
        return new Site(Opcodes.INVOKESTATIC, owner, name, desc, name, desc, kind);
    }

    /** The site a call or handle matches, counted as rewritten; null when it stays. */
    private Site rewrite(int opcode, String owner, String name, String desc) {
        for (Site site : sites) {
            if (site.matches(opcode, owner, name, desc)) {
                counts.add(site.kind);
                return site;
            }
        }
        return null;
    }

    private Object redirect(Object bootstrapArgument) {
        if (!(bootstrapArgument instanceof Handle handle)) {
            return bootstrapArgument;
        }
        int opcode = switch (handle.getTag()) {
            case Opcodes.H_INVOKEVIRTUAL -> Opcodes.INVOKEVIRTUAL;
            case Opcodes.H_INVOKESTATIC -> Opcodes.INVOKESTATIC;
            default -> -1;
        };
        Site site = rewrite(opcode, handle.getOwner(), handle.getName(), handle.getDesc());
        return site == null ? handle : new Handle(Opcodes.H_INVOKESTATIC, hookOwner, site.hook, site.hookDesc, false);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean isInterface) {
                Site site = rewrite(opcode, owner, method, desc);
                if (site == null) {
                    super.visitMethodInsn(opcode, owner, method, desc, isInterface);
                } else {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, hookOwner, site.hook, site.hookDesc, false);
                }
            }

            @Override
            public void visitInvokeDynamicInsn(String method, String desc, Handle bootstrap, Object... arguments) {
                Object[] redirected = new Object[arguments.length];
                for (int i = 0; i < arguments.length; i++) {
                    redirected[i] = redirect(arguments[i]);
                }
                super.visitInvokeDynamicInsn(method, desc, bootstrap, redirected);
            }
        };
    }
}
