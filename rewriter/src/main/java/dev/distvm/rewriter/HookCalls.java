package dev.distvm.rewriter;

import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.Method;

/**
 * Emits references to {@link RuntimeHooks} on one hook class: {@link RuntimeHooks#OWNER} in the
 * agent, a recording stand-in with the same methods in the rewriter's tests.
 */
final class HookCalls {
    private final String owner;

    HookCalls(String owner) {
        this.owner = owner;
    }

    String owner() {
        return owner;
    }

    /** {@code invokestatic} of the hook: one instruction, so the rewritten code is no larger than the call it makes. */
    void invoke(MethodVisitor method, Method hook) {
        method.visitMethodInsn(Opcodes.INVOKESTATIC, owner, hook.getName(), hook.getDescriptor(), false);
    }

    /** A handle to the hook, for bootstrap arguments (method references). */
    Handle handle(Method hook) {
        return new Handle(Opcodes.H_INVOKESTATIC, owner, hook.getName(), hook.getDescriptor(), false);
    }
}
