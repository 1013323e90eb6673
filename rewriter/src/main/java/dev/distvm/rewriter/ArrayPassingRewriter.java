package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Arrays written by code that is not rewritten: a call that hands an array to JDK code (an
 * {@code Arrays.fill}, a {@code System.arraycopy}, an {@code InputStream.read}) goes through a
 * synthetic helper of the calling class that makes the call and then reports each array it passed
 * ({@code HOOK.arrayPassed}: any chunk may have been written), also when the call throws. Calls that
 * leave JDK code holding the array, able to write it later ({@code Arrays.asList}, a buffer's
 * {@code wrap}, a buffer's {@code array()}), report it as aliased: such an array is compared whole
 * at every release.
 *
 * <p>A call counts as JDK code when its owner is not an application class, or is one that
 * inherits the method from a JDK class ({@link JdkInheritance}, answered without loading classes). A {@code super} call (a stream subclass's
 * {@code super.read(buffer)}) goes through a private instance helper instead, since only the class
 * itself may make it. Left direct: constructors (nothing may receive an object before its
 * constructor ran; JDK constructors copy the arrays they are given rather than write them), an
 * interface's super calls, and calls in interfaces older than Java 8, which cannot hold a helper.
 */
final class ArrayPassingRewriter extends HelperHost {
    private final HookCalls hooks;
    private final Predicate<String> isApplicationClass;
    private final JdkInheritance jdkInheritance;
    private final RewriteCounts counts;
    private final Map<String, Helper> helpers = new LinkedHashMap<>();

    /**
     * A helper that makes one call: static, taking the receiver first, for static, virtual and
     * interface calls; for a {@code super} call, a private instance method of the class (only it
     * may make that call), taking the call's own arguments.
     */
    private record Helper(String name, int opcode, String owner, String method, String descriptor, boolean ownerIsInterface,
                          String caller) {
        boolean isSuperCall() {
            return opcode == Opcodes.INVOKESPECIAL;
        }

        /** The helper's parameters as its locals hold them: the receiver first, if any. */
        List<Type> parameters() {
            List<Type> parameters = new ArrayList<>();
            if (opcode != Opcodes.INVOKESTATIC) {
                parameters.add(Type.getObjectType(isSuperCall() ? caller : owner));
            }
            parameters.addAll(List.of(Type.getArgumentTypes(descriptor)));
            return parameters;
        }

        String helperDescriptor() {
            if (isSuperCall()) {
                return descriptor;
            }
            return Type.getMethodDescriptor(Type.getReturnType(descriptor), parameters().toArray(new Type[0]));
        }
    }

    ArrayPassingRewriter(ClassVisitor next, HookCalls hooks, Predicate<String> isApplicationClass,
            JdkInheritance jdkInheritance, RewriteCounts counts) {
        super(next);
        this.hooks = hooks;
        this.isApplicationClass = isApplicationClass;
        this.jdkInheritance = jdkInheritance;
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
            @Override
            public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean ownerIsInterface) {
                if (!handsArraysToJdk(owner, method, desc)) {
                    super.visitMethodInsn(opcode, owner, method, desc, ownerIsInterface);
                    return;
                }
                boolean superCall = opcode == Opcodes.INVOKESPECIAL;
                // Constructors cannot be wrapped (nothing may receive an uninitialized object); an
                // interface's super calls would need a private method, which Java 8 interfaces cannot have.
                if (cannotHoldHelpers() || (superCall && (method.equals("<init>") || isInterface))) {
                    counts.add(Kind.DIRECT_ARRAY_PASSED);
                    super.visitMethodInsn(opcode, owner, method, desc, ownerIsInterface);
                    return;
                }
                Helper helper = helpers.computeIfAbsent(opcode + " " + owner + "." + method + desc,
                        key -> new Helper((superCall ? "$dist$super$" : "$dist$pass$") + helpers.size(), opcode, owner, method,
                                desc, ownerIsInterface, className));
                super.visitMethodInsn(superCall ? Opcodes.INVOKESPECIAL : Opcodes.INVOKESTATIC, className, helper.name(),
                        helper.helperDescriptor(), isInterface);
                counts.add(Kind.ARRAY_PASSED);
            }
        };
    }

    @Override
    public void visitEnd() {
        for (Helper helper : helpers.values()) {
            generate(helper);
        }
        super.visitEnd();
    }

    private boolean handsArraysToJdk(String owner, String method, String descriptor) {
        if (owner.startsWith("[") || owner.startsWith("dev/distvm/") || method.startsWith("$dist$")
                || (isApplicationClass.test(owner) && !jdkInheritance.inheritedFromJdk(owner, method, descriptor))) {
            return false;
        }
        if (returnsAlias(owner, method, descriptor)) {
            return true;
        }
        for (Type argument : Type.getArgumentTypes(descriptor)) {
            if (argument.getSort() == Type.ARRAY) {
                return true;
            }
        }
        return writesObjectArgument(owner, method) >= 0;
    }

    /** The parameter typed {@code Object} through which a JDK method writes an array, or -1. */
    private static int writesObjectArgument(String owner, String method) {
        if (owner.equals("java/lang/System") && method.equals("arraycopy")) {
            return 2;
        }
        if (owner.equals("java/lang/reflect/Array") && method.startsWith("set")) {
            return 0;
        }
        return -1;
    }

    /** Calls after which JDK code keeps the arrays it was given. */
    private static boolean keepsArguments(String owner, String method) {
        return (owner.equals("java/util/Arrays") && method.equals("asList"))
                || (owner.startsWith("java/nio/") && method.equals("wrap"));
    }

    /** A buffer's {@code array()}: the array it writes into, now in the application's hands too. */
    private static boolean returnsAlias(String owner, String method, String descriptor) {
        return owner.startsWith("java/nio/") && method.equals("array") && Type.getReturnType(descriptor).getSort() == Type.ARRAY;
    }

    private void generate(Helper helper) {
        int access = helper.isSuperCall() ? Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC : helperAccess();
        MethodVisitor method = super.visitMethod(access, helper.name(), helper.helperDescriptor(), null, null);
        method.visitCode();
        Label start = new Label();
        Label end = new Label();
        Label thrown = new Label();
        method.visitTryCatchBlock(start, end, thrown, null);
        method.visitLabel(start);
        List<Type> parameters = helper.parameters();
        int[] slots = new int[parameters.size()];
        int slot = 0;
        for (int i = 0; i < parameters.size(); i++) {
            slots[i] = slot;
            method.visitVarInsn(parameters.get(i).getOpcode(Opcodes.ILOAD), slot);
            slot += parameters.get(i).getSize();
        }
        method.visitMethodInsn(helper.opcode(), helper.owner(), helper.method(), helper.descriptor(), helper.ownerIsInterface());
        method.visitLabel(end);
        Type result = Type.getReturnType(helper.descriptor());
        if (returnsAlias(helper.owner(), helper.method(), helper.descriptor())) {
            method.visitInsn(Opcodes.DUP);
            hooks.invoke(method, RuntimeHooks.ARRAY_ALIASED);
        }
        reportArguments(method, helper, parameters, slots);
        method.visitInsn(result.getOpcode(Opcodes.IRETURN));
        method.visitLabel(thrown);
        if (hasFrames()) {
            Object[] locals = parameters.stream().map(FrameTypes::of).toArray();
            method.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
        }
        reportArguments(method, helper, parameters, slots);
        method.visitInsn(Opcodes.ATHROW);
        method.visitMaxs(0, 0);
        method.visitEnd();
    }

    private void reportArguments(MethodVisitor method, Helper helper, List<Type> parameters, int[] slots) {
        int receiver = helper.opcode() == Opcodes.INVOKESTATIC ? 0 : 1;
        int writtenObject = writesObjectArgument(helper.owner(), helper.method());
        for (int i = receiver; i < parameters.size(); i++) {
            if (parameters.get(i).getSort() == Type.ARRAY || i - receiver == writtenObject) {
                method.visitVarInsn(Opcodes.ALOAD, slots[i]);
                hooks.invoke(method, keepsArguments(helper.owner(), helper.method())
                        ? RuntimeHooks.ARRAY_ALIASED : RuntimeHooks.ARRAY_PASSED);
            }
        }
    }
}
