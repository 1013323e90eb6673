package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.Arrays;
import java.util.function.Predicate;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Attribute;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;

/**
 * Turns each {@code synchronized} method into an unsynchronized wrapper that holds the lock
 * ({@code this}, or the class for a static method) around a call of the original body, moved
 * unchanged into a private synthetic method {@code $dist$sync$<name>}. The JVM takes a synchronized
 * method's monitor itself, where no hook can intervene; an explicit {@code monitorenter}/
 * {@code monitorexit} pair can be hooked, and placing it in a wrapper leaves the body's code, line
 * numbers and frames untouched (its implicit first frame is the original's: same class, same
 * staticness, same descriptor).
 *
 * <p>The wrapper is shaped as javac compiles a synchronized block (the lock kept in a local, exit
 * on return, exit and rethrow on any exception), with plain monitor instructions; a
 * {@link MonitorRewriter} after this visitor adds the hooks to them. HotSpot compiles a method
 * with monitors only when it can pair them as it pairs javac's: every exit unlocks the value the
 * enter locked, loaded from that local (two {@code ldc} of the same class are two values to it). The wrapper keeps the method's name, descriptor, access (minus
 * {@code synchronized}), signature, exceptions, annotations and parameters, so that callers,
 * overriding and reflection see the same method. Native methods have no body to move: they reach this
 * visitor already wrapped by {@link NativeMethodRewriter}. The writer needs {@code COMPUTE_MAXS}.
 *
 * <p>The wrapper of a method that may run at its object's home ({@link HomeCallShape}: one that
 * waits) first asks the runtime whether to (on a worker, for a copy whose monitor other nodes use;
 * the hook folds to false at the home) and, if so, returns what the home's call returned.
 */
final class SynchronizedMethodRewriter extends ClassVisitor {
    static final String BODY_PREFIX = RuntimeHooks.SYNCHRONIZED_BODY_PREFIX;

    private final HookCalls hooks;
    private final Predicate<String> isThread;
    private final RewriteCounts counts;
    private String className;
    private int version;
    private boolean mayCallHome;

    SynchronizedMethodRewriter(ClassVisitor next, HookCalls hooks, Predicate<String> isThread, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.isThread = isThread;
        this.counts = counts;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.version = version & 0xFFFF;
        this.className = name;
        // A Thread's calls from workers mean questions about the thread (ThreadsElsewhere), not its methods
        this.mayCallHome = !isThread.test(name);
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        // The JVM ignores the flag on <clinit> (and rejects it on <init>): nothing to do there.
        // A native method has no body to move: NativeMethodRewriter, before this visitor, gives it one.
        if ((access & Opcodes.ACC_SYNCHRONIZED) == 0 || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
                || name.startsWith("<")) {
            return super.visitMethod(access, name, descriptor, signature, exceptions);
        }
        counts.add(Kind.SYNCHRONIZED_METHOD);
        int bodyAccess = (access & (Opcodes.ACC_STATIC | Opcodes.ACC_STRICT)) | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
        MethodVisitor wrapper = super.visitMethod(access & ~Opcodes.ACC_SYNCHRONIZED, name, descriptor, signature, exceptions);
        MethodVisitor body = super.visitMethod(bodyAccess, BODY_PREFIX + name, descriptor, signature, exceptions);
        return new Splitter(body, wrapper, access, name, descriptor);
    }

    /** Keeps the code for the body, and what it contains for the wrapper's decision. */
    private final class Splitter extends MethodVisitor {

        private final MethodVisitor wrapper;
        private final HomeCallShape shape;
        private final boolean isStatic;
        private final String name;
        private final String descriptor;

        Splitter(MethodVisitor body, MethodVisitor wrapper, int access, String name, String descriptor) {
            this(new HomeCallShape(body, hooks.owner(), access, descriptor), wrapper, access, name, descriptor);
        }

        private Splitter(HomeCallShape shape, MethodVisitor wrapper, int access, String name, String descriptor) {
            super(Opcodes.ASM9, shape);
            this.shape = shape;
            this.wrapper = wrapper;
            this.isStatic = (access & Opcodes.ACC_STATIC) != 0;
            this.name = name;
            this.descriptor = descriptor;
        }

        @Override
        public void visitParameter(String parameter, int access) {
            wrapper.visitParameter(parameter, access);
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return wrapper.visitAnnotation(descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String descriptor, boolean visible) {
            return wrapper.visitTypeAnnotation(typeRef, typePath, descriptor, visible);
        }

        @Override
        public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
            wrapper.visitAnnotableParameterCount(parameterCount, visible);
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
            return wrapper.visitParameterAnnotation(parameter, descriptor, visible);
        }

        @Override
        public void visitAttribute(Attribute attribute) {
            wrapper.visitAttribute(attribute);
        }

        @Override
        public void visitEnd() {
            super.visitEnd();
            writeWrapperCode();
            wrapper.visitEnd();
        }

        /**
         * As javac compiles a synchronized block, which HotSpot knows how to pair: the handler
         * ranges cover everything that may throw while the lock is held (the exits included, and
         * the handler's own exit), so an exception leaves no monitor behind.
         */
        private void writeWrapperCode() {
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            Label handlerEnd = new Label();
            int lockLocal = argumentSlots();
            wrapper.visitCode();
            if (mayCallHome && shape.mayRunAtHome()) {
                writeHomeCall();
            }
            wrapper.visitTryCatchBlock(start, end, handler, null);
            wrapper.visitTryCatchBlock(handler, handlerEnd, handler, null);
            pushLock();
            wrapper.visitInsn(Opcodes.DUP);
            wrapper.visitVarInsn(Opcodes.ASTORE, lockLocal);
            wrapper.visitInsn(Opcodes.MONITORENTER);
            wrapper.visitLabel(start);
            SameArguments.callPrivate(wrapper, className, isStatic, BODY_PREFIX + name, descriptor);
            wrapper.visitVarInsn(Opcodes.ALOAD, lockLocal);
            wrapper.visitInsn(Opcodes.MONITOREXIT);
            wrapper.visitLabel(end);
            wrapper.visitInsn(Type.getReturnType(descriptor).getOpcode(Opcodes.IRETURN));
            wrapper.visitLabel(handler);
            if (version >= Opcodes.V1_6) {
                Object[] locals = lockAfterArgumentLocals();
                wrapper.visitFrame(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"});
            }
            wrapper.visitVarInsn(Opcodes.ALOAD, lockLocal);
            wrapper.visitInsn(Opcodes.MONITOREXIT);
            wrapper.visitLabel(handlerEnd);
            wrapper.visitInsn(Opcodes.ATHROW);
            wrapper.visitMaxs(0, 0);
        }

        /**
         * {@code if (Hooks.callsHome(this)) return (T) Hooks.callHome(this, key, new Object[] {args...});}
         * The branch's target has the method's first frame.
         */
        private void writeHomeCall() {
            String key = className.replace('/', '.') + "#" + name + descriptor;
            counts.addHomeCall(key);
            Label here = new Label();
            wrapper.visitVarInsn(Opcodes.ALOAD, 0);
            hooks.invoke(wrapper, RuntimeHooks.CALLS_HOME);
            wrapper.visitJumpInsn(Opcodes.IFEQ, here);
            wrapper.visitVarInsn(Opcodes.ALOAD, 0);
            wrapper.visitLdcInsn(key);
            Type[] arguments = Type.getArgumentTypes(descriptor);
            wrapper.visitLdcInsn(arguments.length);
            wrapper.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
            int slot = 1;
            for (int i = 0; i < arguments.length; i++) {
                wrapper.visitInsn(Opcodes.DUP);
                wrapper.visitLdcInsn(i);
                wrapper.visitVarInsn(arguments[i].getOpcode(Opcodes.ILOAD), slot);
                Boxes.box(wrapper, arguments[i]);
                wrapper.visitInsn(Opcodes.AASTORE);
                slot += arguments[i].getSize();
            }
            hooks.invoke(wrapper, RuntimeHooks.CALL_HOME);
            Type result = Type.getReturnType(descriptor);
            if (result.getSort() == Type.VOID) {
                wrapper.visitInsn(Opcodes.POP);
            } else {
                Boxes.unbox(wrapper, result);
            }
            wrapper.visitInsn(result.getOpcode(Opcodes.IRETURN));
            wrapper.visitLabel(here);
            if (version >= Opcodes.V1_6) {
                Object[] locals = argumentLocals();
                wrapper.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
            }
        }

        private void pushLock() {
            if (!isStatic) {
                wrapper.visitVarInsn(Opcodes.ALOAD, 0);
            } else if (version >= Opcodes.V1_5) {
                wrapper.visitLdcInsn(Type.getObjectType(className));
            } else {
                // Class constants need class file version 49; before that, javac looked classes up
                // by name too. The caller is the class itself, so its loader finds the class.
                wrapper.visitLdcInsn(className.replace('/', '.'));
                wrapper.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/Class", "forName",
                        "(Ljava/lang/String;)Ljava/lang/Class;", false);
            }
        }

        private int argumentSlots() {
            return (Type.getArgumentsAndReturnSizes(descriptor) >> 2) - (isStatic ? 1 : 0);
        }

        /** The handler's locals: {@code this} (unless static), the arguments, then the lock. */
        private Object[] lockAfterArgumentLocals() {
            Object[] arguments = argumentLocals();
            Object[] locals = Arrays.copyOf(arguments, arguments.length + 1);
            locals[arguments.length] = isStatic ? "java/lang/Class" : className;
            return locals;
        }

        /** The method's first frame's locals: {@code this} (unless static), then the arguments. */
        private Object[] argumentLocals() {
            Type[] arguments = Type.getArgumentTypes(descriptor);
            Object[] locals = new Object[arguments.length + (isStatic ? 0 : 1)];
            int i = 0;
            if (!isStatic) {
                locals[i++] = className;
            }
            for (Type argument : arguments) {
                locals[i++] = FrameTypes.of(argument);
            }
            return locals;
        }
    }
}
