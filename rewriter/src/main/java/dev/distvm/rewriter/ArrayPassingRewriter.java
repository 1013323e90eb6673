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
 * <p>A call counts as JDK code when its owner is not an application class, or is one that extends
 * a JDK class other than {@code Object} (whose inherited methods run unrewritten); the caller's
 * predicate answers the latter without loading classes. Constructors and {@code super} calls
 * ({@code invokespecial}) are left direct, as are calls in interfaces older than Java 8, which
 * cannot hold a helper: JDK constructors copy the arrays they are given rather than write them.
 */
final class ArrayPassingRewriter extends HelperHost {
    private final HookCalls hooks;
    private final Predicate<String> isApplicationClass;
    private final Predicate<String> extendsJdkClass;
    private final RewriteCounts counts;
    private final Map<String, Helper> helpers = new LinkedHashMap<>();

    private record Helper(String name, int opcode, String owner, String method, String descriptor, boolean ownerIsInterface) {
        List<Type> parameters() {
            List<Type> parameters = new ArrayList<>();
            if (opcode != Opcodes.INVOKESTATIC) {
                parameters.add(Type.getObjectType(owner));
            }
            parameters.addAll(List.of(Type.getArgumentTypes(descriptor)));
            return parameters;
        }

        String helperDescriptor() {
            return Type.getMethodDescriptor(Type.getReturnType(descriptor), parameters().toArray(new Type[0]));
        }
    }

    ArrayPassingRewriter(ClassVisitor next, HookCalls hooks, Predicate<String> isApplicationClass,
            Predicate<String> extendsJdkClass, RewriteCounts counts) {
        super(next);
        this.hooks = hooks;
        this.isApplicationClass = isApplicationClass;
        this.extendsJdkClass = extendsJdkClass;
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
                if (opcode == Opcodes.INVOKESPECIAL || cannotHoldHelpers()) {
                    counts.add(Kind.DIRECT_ARRAY_PASSED);
                    super.visitMethodInsn(opcode, owner, method, desc, ownerIsInterface);
                    return;
                }
                Helper helper = helpers.computeIfAbsent(opcode + " " + owner + "." + method + desc,
                        key -> new Helper("$dist$pass$" + helpers.size(), opcode, owner, method, desc, ownerIsInterface));
                super.visitMethodInsn(Opcodes.INVOKESTATIC, className, helper.name(), helper.helperDescriptor(), isInterface);
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
        if (owner.startsWith("[") || owner.startsWith("dev/distvm/")
                || (isApplicationClass.test(owner) && !extendsJdkClass.test(owner))) {
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
        int access = helperAccess();
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
