package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.List;
import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.Method;

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
final class CallSiteRewriter extends ClassVisitor {
    private record Site(int opcode, Predicate<String> owner, String name, String desc, Method hook, Kind kind) {
        boolean matches(int opcode, String owner, String name, String desc) {
            return this.opcode == opcode && this.name.equals(name) && this.desc.equals(desc) && this.owner.test(owner);
        }
    }

    private final HookCalls hooks;
    private final RewriteCounts counts;
    private final List<Site> sites;

    /** Each hook's descriptor is the call's with the receiver (if any) first: the operand stack stays the same. */
    CallSiteRewriter(ClassVisitor next, HookCalls hooks, Predicate<String> isThread, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.counts = counts;
        Predicate<String> anyOwner = owner -> true;
        Predicate<String> system = "java/lang/System"::equals;
        Predicate<String> runtime = "java/lang/Runtime"::equals;
        Predicate<String> threadGroup = "java/lang/ThreadGroup"::equals;
        Predicate<String> object = "java/lang/Object"::equals;
        this.sites = List.of(
                virtual(anyOwner, "wait", "()V", RuntimeHooks.WAIT, Kind.WAIT),
                virtual(anyOwner, "wait", "(J)V", RuntimeHooks.WAIT_MILLIS, Kind.WAIT),
                virtual(anyOwner, "wait", "(JI)V", RuntimeHooks.WAIT_MILLIS_NANOS, Kind.WAIT),
                virtual(anyOwner, "notify", "()V", RuntimeHooks.NOTIFY, Kind.NOTIFY),
                virtual(anyOwner, "notifyAll", "()V", RuntimeHooks.NOTIFY_ALL, Kind.NOTIFY),
                virtual(isThread, "start", "()V", RuntimeHooks.START, Kind.THREAD_START),
                virtual(isThread, "join", "()V", RuntimeHooks.JOIN, Kind.THREAD_JOIN),
                virtual(isThread, "join", "(J)V", RuntimeHooks.JOIN_MILLIS, Kind.THREAD_JOIN),
                virtual(isThread, "join", "(JI)V", RuntimeHooks.JOIN_MILLIS_NANOS, Kind.THREAD_JOIN),
                virtual(isThread, "isAlive", "()Z", RuntimeHooks.IS_ALIVE, Kind.THREAD_IS_ALIVE),
                virtual(isThread, "getState", "()Ljava/lang/Thread$State;", RuntimeHooks.THREAD_STATE, Kind.THREAD_IS_ALIVE),
                virtual(isThread, "getStackTrace", "()[Ljava/lang/StackTraceElement;", RuntimeHooks.STACK_TRACE,
                        Kind.THREAD_IS_ALIVE),
                virtual(isThread, "getId", "()J", RuntimeHooks.THREAD_ID, Kind.THREAD_ID),
                virtual(isThread, "threadId", "()J", RuntimeHooks.THREAD_ID, Kind.THREAD_ID),
                virtual(isThread, "interrupt", "()V", RuntimeHooks.INTERRUPT, Kind.THREAD_INTERRUPT),
                virtual(isThread, "isInterrupted", "()Z", RuntimeHooks.IS_INTERRUPTED, Kind.THREAD_INTERRUPT),
                statik(isThread, "interrupted", "()Z", RuntimeHooks.INTERRUPTED, Kind.THREAD_INTERRUPT),
                virtual(runtime, "exit", "(I)V", RuntimeHooks.RUNTIME_EXIT, Kind.EXIT),
                virtual(runtime, "halt", "(I)V", RuntimeHooks.HALT, Kind.EXIT),
                statik(isThread, "currentThread", "()Ljava/lang/Thread;", RuntimeHooks.CURRENT_THREAD, Kind.CURRENT_THREAD),
                statik(isThread, "activeCount", "()I", RuntimeHooks.ACTIVE_COUNT, Kind.THREAD_COUNT),
                statik(isThread, "enumerate", "([Ljava/lang/Thread;)I", RuntimeHooks.ENUMERATE, Kind.THREAD_COUNT),
                virtual(threadGroup, "activeCount", "()I", RuntimeHooks.GROUP_ACTIVE_COUNT, Kind.THREAD_COUNT),
                virtual(threadGroup, "enumerate", "([Ljava/lang/Thread;)I", RuntimeHooks.GROUP_ENUMERATE, Kind.THREAD_COUNT),
                statik(isThread, "sleep", "(J)V", RuntimeHooks.SLEEP, Kind.SLEEP),
                statik(isThread, "sleep", "(JI)V", RuntimeHooks.SLEEP_NANOS, Kind.SLEEP),
                statik(system, "identityHashCode", "(Ljava/lang/Object;)I", RuntimeHooks.IDENTITY_HASH_CODE, Kind.IDENTITY_HASH_CODE),
                virtual(object, "hashCode", "()I", RuntimeHooks.OBJECT_HASH_CODE, Kind.IDENTITY_HASH_CODE),
                statik(system, "exit", "(I)V", RuntimeHooks.EXIT, Kind.EXIT));
    }

    private static Site virtual(Predicate<String> owner, String name, String desc, Method hook, Kind kind) {
        return new Site(Opcodes.INVOKEVIRTUAL, owner, name, desc, hook, kind);
    }

    private static Site statik(Predicate<String> owner, String name, String desc, Method hook, Kind kind) {
        return new Site(Opcodes.INVOKESTATIC, owner, name, desc, hook, kind);
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
        return site == null ? handle : hooks.handle(site.hook);
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
                    hooks.invoke(mv, site.hook);
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
