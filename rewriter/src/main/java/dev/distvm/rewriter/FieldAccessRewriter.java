package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.MethodNode;

/**
 * Routes field accesses on an application class through a synthetic static helper of the calling
 * class: a static access first lets the runtime fetch statics that are not valid here
 * ({@code HOOK.staticFault(C.class)}); a write to a shared object or class reports itself
 * ({@code HOOK.written}); a volatile access is bracketed by the runtime's acquire/release hooks. One
 * helper per (owner, field, access kind).
 *
 * <p>A read of an instance field that is not volatile stays a plain {@code getfield}: an object's copy
 * always arrives with its state and is refreshed in place at acquires, so there is nothing to check,
 * and the read costs what it costs on one JVM.
 *
 * <p>A write of an instance field that is not volatile stays the program's {@code putfield}, followed by
 * a call of {@code $dist$written$N(o)} (one per owner class), which reports it when the object is
 * shared: a store into a null object then fails in the program's frame with the JVM's message.
 *
 * <p>The helper takes the same operands and leaves the same result as the instruction it replaces,
 * so the frames of the calling method stay valid as they are. Accesses left direct: writes to
 * {@code uninitializedThis} (no method may receive it), a class initializer's accesses to its own
 * statics (the runtime already decided that the initializer runs here), and accesses in interfaces
 * older than Java 8 (which cannot hold static methods). Field handle constants are redirected to the
 * same helpers.
 */
final class FieldAccessRewriter extends HelperHost {
    private final HookCalls hooks;
    private final Predicate<String> isApplicationClass;
    private final FieldResolver fieldResolver;
    private final RewriteCounts counts;
    private final Map<String, AccessHelper> helpers = new LinkedHashMap<>();

    /**
     * One helper per distinct access; {@code statics} is the class whose statics hold a static
     * field (its declaring class where the code may name it, see {@link FieldResolver#staticsHolder}):
     * its state is checked and it is the hooks' target. When a superclass the code may not name
     * declares it ({@code declaredUnnamed}), no state can be read: the runtime is asked at every
     * access and told of every write, as for an interface's fields.
     */
    private record AccessHelper(String name, int opcode, String owner, String field, String fieldDescriptor,
            boolean isVolatile, boolean ownerIsInterface, String statics, boolean declaredUnnamed) {

        /** A helper that only reports a write the caller made itself ({@code $dist$written$N(owner)}). */
        static AccessHelper reportOf(String name, String owner) {
            return new AccessHelper(name, Opcodes.PUTFIELD, owner, null, null, false, false, owner, false);
        }

        boolean isReportOnly() {
            return field == null;
        }

        boolean isStatic() {
            return opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC;
        }

        boolean isRead() {
            return opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC;
        }

        List<Type> parameters() {
            List<Type> parameters = new ArrayList<>(2);
            if (!isStatic()) {
                parameters.add(Type.getObjectType(owner));
            }
            if (!isRead() && !isReportOnly()) {
                parameters.add(Type.getType(fieldDescriptor));
            }
            return parameters;
        }

        String descriptor() {
            Type result = isRead() ? Type.getType(fieldDescriptor) : Type.VOID_TYPE;
            return Type.getMethodDescriptor(result, parameters().toArray(new Type[0]));
        }
    }

    FieldAccessRewriter(ClassVisitor next, HookCalls hooks, Predicate<String> isApplicationClass,
            FieldResolver fieldResolver, RewriteCounts counts) {
        super(next);
        this.hooks = hooks;
        this.isApplicationClass = isApplicationClass;
        this.fieldResolver = fieldResolver;
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (!name.equals("<init>")) {
            return new AccessRewritingMethod(next, name.equals("<clinit>"), false, new BitSet());
        }
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                accept(new AccessRewritingMethod(next, false, isEnum, UninitializedThisWrites.find(className, this)));
            }
        };
    }

    @Override
    public void visitEnd() {
        for (AccessHelper helper : helpers.values()) {
            generate(helper);
        }
        super.visitEnd();
    }

    private final class AccessRewritingMethod extends MethodVisitor {
        private final boolean isClassInitializer;
        private final boolean isEnumConstructor;
        private final BitSet uninitializedThisWrites;
        private int fieldInstruction;

        AccessRewritingMethod(MethodVisitor next, boolean isClassInitializer, boolean isEnumConstructor,
                BitSet uninitializedThisWrites) {
            super(Opcodes.ASM9, next);
            this.isClassInitializer = isClassInitializer;
            this.isEnumConstructor = isEnumConstructor;
            this.uninitializedThisWrites = uninitializedThisWrites;
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            boolean writesUninitializedThis = uninitializedThisWrites.get(fieldInstruction++);
            if (!isApplicationClass.test(owner)) {
                super.visitFieldInsn(opcode, owner, name, descriptor);
                return;
            }
            boolean isStatic = opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC;
            Kind directBecause = isStatic && isClassInitializer && owner.equals(className) ? Kind.DIRECT_OWN_CLASS_INITIALIZER
                    : writesUninitializedThis ? Kind.DIRECT_UNINITIALIZED_THIS
                    : isEnumConstructor && opcode == Opcodes.PUTFIELD && owner.equals(className) ? Kind.DIRECT_ENUM_CONSTRUCTOR
                    : cannotHoldHelpers() ? Kind.DIRECT_OLD_INTERFACE
                    : isPlainInstanceRead(opcode, owner, name, descriptor) ? Kind.DIRECT_INSTANCE_READ
                    : null;
            if (directBecause != null) {
                counts.add(directBecause);
                super.visitFieldInsn(opcode, owner, name, descriptor);
                return;
            }
            if (opcode == Opcodes.PUTFIELD && !fieldResolver.isVolatile(owner, name, descriptor)) {
                storeThenReport(owner, name, descriptor);
                counts.add(Kind.FIELD_WRITE);
                return;
            }
            AccessHelper helper = helperFor(opcode, owner, name, descriptor);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, className, helper.name(), helper.descriptor(), isInterface);
            counts.add(switch (opcode) {
                case Opcodes.GETFIELD -> Kind.VOLATILE_FIELD_READ;
                case Opcodes.PUTFIELD -> Kind.FIELD_WRITE;
                case Opcodes.GETSTATIC -> Kind.STATIC_READ;
                default -> Kind.STATIC_WRITE;
            });
            if (helper.isVolatile()) {
                counts.add(Kind.VOLATILE_ACCESS);
            }
        }

        /**
         * The program's own {@code putfield}, then {@code $dist$written$N(o)}: a store that fails
         * (a null object) throws in the program's frame with the JVM's message, as on one JVM.
         * {@code o, v -> o, o, v}, by stack operations only, so the frames stay valid.
         */
        private void storeThenReport(String owner, String name, String descriptor) {
            if (Type.getType(descriptor).getSize() == 2) {
                super.visitInsn(Opcodes.DUP2_X1); // v, o, v
                super.visitInsn(Opcodes.POP2);    // v, o
                super.visitInsn(Opcodes.DUP_X2);  // o, v, o
                super.visitInsn(Opcodes.DUP_X2);  // o, o, v, o
                super.visitInsn(Opcodes.POP);     // o, o, v
            } else {
                super.visitInsn(Opcodes.SWAP);    // v, o
                super.visitInsn(Opcodes.DUP_X1);  // o, v, o
                super.visitInsn(Opcodes.SWAP);    // o, o, v
            }
            super.visitFieldInsn(Opcodes.PUTFIELD, owner, name, descriptor);
            AccessHelper report = reportFor(owner);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, className, report.name(), report.descriptor(), isInterface);
        }

        @Override
        public void visitLdcInsn(Object value) {
            super.visitLdcInsn(guarded(value));
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
            Object[] guardedArguments = new Object[arguments.length];
            for (int i = 0; i < arguments.length; i++) {
                guardedArguments[i] = guarded(arguments[i]);
            }
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, guardedArguments);
        }
    }

    private boolean isPlainInstanceRead(int opcode, String owner, String name, String descriptor) {
        return opcode == Opcodes.GETFIELD && !fieldResolver.isVolatile(owner, name, descriptor);
    }

    /**
     * A field handle constant (records' equals/hashCode/toString get their fields through such handles
     * passed to ObjectMethods) becomes a handle to the helper, which has the same type.
     */
    private Object guarded(Object constant) {
        if (!(constant instanceof Handle handle) || !isApplicationClass.test(handle.getOwner()) || cannotHoldHelpers()) {
            return constant;
        }
        int opcode = switch (handle.getTag()) {
            case Opcodes.H_GETFIELD -> Opcodes.GETFIELD;
            case Opcodes.H_PUTFIELD -> Opcodes.PUTFIELD;
            case Opcodes.H_GETSTATIC -> Opcodes.GETSTATIC;
            case Opcodes.H_PUTSTATIC -> Opcodes.PUTSTATIC;
            default -> 0;
        };
        if (opcode == 0 || isPlainInstanceRead(opcode, handle.getOwner(), handle.getName(), handle.getDesc())) {
            return constant;
        }
        AccessHelper helper = helperFor(opcode, handle.getOwner(), handle.getName(), handle.getDesc());
        counts.add(Kind.FIELD_HANDLE);
        return new Handle(Opcodes.H_INVOKESTATIC, className, helper.name(), helper.descriptor(), isInterface);
    }

    private AccessHelper helperFor(int opcode, String owner, String name, String descriptor) {
        return helpers.computeIfAbsent(opcode + " " + owner + "." + name + ":" + descriptor, key -> {
            String prefix = switch (opcode) {
                case Opcodes.GETFIELD -> "$dist$get$";
                case Opcodes.PUTFIELD -> "$dist$put$";
                case Opcodes.GETSTATIC -> "$dist$getstatic$";
                default -> "$dist$putstatic$";
            };
            boolean isStatic = opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC;
            String holder = isStatic ? fieldResolver.staticsHolder(owner, name, descriptor, className) : owner;
            boolean declaredUnnamed = holder == null;
            String statics = declaredUnnamed || !isApplicationClass.test(holder) ? owner : holder;
            boolean ownerIsInterface = isStatic
                    && (statics.equals(className) ? isInterface : fieldResolver.isInterface(statics));
            return new AccessHelper(prefix + helpers.size(), opcode, owner, name, descriptor,
                    fieldResolver.isVolatile(owner, name, descriptor), ownerIsInterface, statics, declaredUnnamed);
        });
    }

    private AccessHelper reportFor(String owner) {
        return helpers.computeIfAbsent("written " + owner, key -> AccessHelper.reportOf("$dist$written$" + helpers.size(), owner));
    }

    private void generate(AccessHelper helper) {
        int access = helperAccess();
        MethodVisitor method = super.visitMethod(access, helper.name(), helper.descriptor(), null, null);
        method.visitCode();
        if (helper.isStatic()) {
            faultIfStaticsNotValid(method, helper); // a volatile static too: its value is the home's
        }
        if (helper.isReportOnly()) {
            reportWriteToShared(method, helper);
        } else if (helper.isVolatile()) {
            if (helper.isRead()) {
                pushTarget(method, helper);
                hooks.invoke(method, RuntimeHooks.BEFORE_VOLATILE_READ);
                access(method, helper);
                hooks.invoke(method, RuntimeHooks.AFTER_VOLATILE_READ);
            } else {
                // What the runtime decided before the write goes to its after-hook, so that the two
                // agree even when the target became shared in between. Both hooks are told the field:
                // a copy's release must carry it even when the value written is the one it held.
                int decided = helper.parameters().stream().mapToInt(Type::getSize).sum();
                pushTarget(method, helper);
                pushField(method, helper);
                hooks.invoke(method, RuntimeHooks.BEFORE_VOLATILE_WRITE);
                method.visitVarInsn(Opcodes.ISTORE, decided);
                access(method, helper);
                pushTarget(method, helper);
                method.visitVarInsn(Opcodes.ILOAD, decided);
                pushField(method, helper);
                hooks.invoke(method, RuntimeHooks.AFTER_VOLATILE_WRITE);
            }
        } else {
            access(method, helper);
            if (!helper.isRead() && !helper.ownerIsInterface()) {
                reportWriteToShared(method, helper);
            }
        }
        Type result = helper.isRead() ? Type.getType(helper.fieldDescriptor()) : Type.VOID_TYPE;
        method.visitInsn(result.getOpcode(Opcodes.IRETURN));
        method.visitMaxs(0, 0);
        method.visitEnd();
        counts.add(Kind.ACCESS_HELPER);
    }

    /** The object or class whose copy the runtime must make valid. */
    private void pushTarget(MethodVisitor method, AccessHelper helper) {
        if (helper.isStatic()) {
            ClassLiterals.push(method, helper.statics(), majorVersion);
        } else {
            method.visitVarInsn(Opcodes.ALOAD, 0);
        }
    }

    /** The field as the instruction names it: its owner's internal name, then its name. */
    private static void pushField(MethodVisitor method, AccessHelper helper) {
        method.visitLdcInsn(helper.owner());
        method.visitLdcInsn(helper.field());
    }

    /** The original instruction, its operands taken from the helper's parameters. */
    private static void access(MethodVisitor method, AccessHelper helper) {
        int slot = 0;
        for (Type parameter : helper.parameters()) {
            method.visitVarInsn(parameter.getOpcode(Opcodes.ILOAD), slot);
            slot += parameter.getSize();
        }
        method.visitFieldInsn(helper.opcode(), helper.owner(), helper.field(), helper.fieldDescriptor());
    }

    private void faultIfStaticsNotValid(MethodVisitor method, AccessHelper helper) {
        if (helper.ownerIsInterface() || helper.declaredUnnamed()) { // no state field to look at: the runtime decides every time
            pushTarget(method, helper);
            hooks.invoke(method, RuntimeHooks.STATIC_FAULT);
            return;
        }
        Label valid = new Label();
        method.visitFieldInsn(Opcodes.GETSTATIC, helper.statics(), ObjectStateInjector.STATIC_STATE, "I");
        method.visitJumpInsn(Opcodes.IFGE, valid);
        pushTarget(method, helper);
        hooks.invoke(method, RuntimeHooks.STATIC_FAULT);
        method.visitLabel(valid);
        if (hasFrames()) {
            Object[] locals = helper.parameters().stream().map(FrameTypes::of).toArray();
            method.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
        }
    }

    /**
     * After a write to a shared object or class (an object whose meta is set, a class whose static
     * state is not 0: a copy, or a master that copies exist of), {@code HOOK.written(target)}: the
     * runtime then knows what to look at when it releases or refreshes instead of comparing every
     * shared thing. After the store, so that a release that finds the mark also finds the value.
     */
    private void reportWriteToShared(MethodVisitor method, AccessHelper helper) {
        if (helper.declaredUnnamed()) { // no state field to look at: the runtime decides
            pushTarget(method, helper);
            hooks.invoke(method, RuntimeHooks.WRITTEN);
            return;
        }
        Label local = new Label();
        if (helper.isStatic()) {
            method.visitFieldInsn(Opcodes.GETSTATIC, helper.statics(), ObjectStateInjector.STATIC_STATE, "I");
            method.visitJumpInsn(Opcodes.IFEQ, local);
            pushTarget(method, helper);
            hooks.invoke(method, RuntimeHooks.WRITTEN);
        } else {
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitFieldInsn(Opcodes.GETFIELD, helper.owner(), ObjectStateInjector.META, "Ljava/lang/Object;");
            method.visitJumpInsn(Opcodes.IFNULL, local);
            // The meta again, for the hook: read twice rather than kept on the stack, so that the
            // frame where both paths meet stays the helper's first.
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitVarInsn(Opcodes.ALOAD, 0);
            method.visitFieldInsn(Opcodes.GETFIELD, helper.owner(), ObjectStateInjector.META, "Ljava/lang/Object;");
            hooks.invoke(method, RuntimeHooks.WRITTEN_WITH_META);
        }
        method.visitLabel(local);
        if (hasFrames()) {
            Object[] locals = helper.parameters().stream().map(FrameTypes::of).toArray();
            method.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
        }
    }
}
