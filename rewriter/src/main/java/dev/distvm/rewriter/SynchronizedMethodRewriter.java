package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
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
 */
final class SynchronizedMethodRewriter extends ClassVisitor {
    static final String BODY_PREFIX = "$dist$sync$";

    private final RewriteCounts counts;
    private String className;
    private int version;

    SynchronizedMethodRewriter(ClassVisitor next, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.counts = counts;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        this.version = version & 0xFFFF;
        this.className = name;
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

    /** Sends the code to the body and everything that describes the method to the wrapper. */
    private final class Splitter extends MethodVisitor {
        private final MethodVisitor wrapper;
        private final boolean isStatic;
        private final String name;
        private final String descriptor;

        Splitter(MethodVisitor body, MethodVisitor wrapper, int access, String name, String descriptor) {
            super(Opcodes.ASM9, body);
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
            Type[] arguments = Type.getArgumentTypes(descriptor);
            Object[] locals = new Object[arguments.length + (isStatic ? 1 : 2)];
            int i = 0;
            if (!isStatic) {
                locals[i++] = className;
            }
            for (Type argument : arguments) {
                locals[i++] = FrameTypes.of(argument);
            }
            locals[i] = isStatic ? "java/lang/Class" : className;
            return locals;
        }
    }
}
