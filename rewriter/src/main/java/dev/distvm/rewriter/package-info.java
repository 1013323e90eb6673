/**
 * Rewrites application class files for the single system image, and does nothing else: pure
 * bytecode transformations (ASM) in one pipeline, {@link dev.distvm.rewriter.ClassRewriter}, whose every
 * call into the runtime is a hook of the contract {@link dev.distvm.rewriter.RuntimeHooks}. No runtime
 * state: what a rewrite must know about other classes is asked of its caller.
 */
package dev.distvm.rewriter;
