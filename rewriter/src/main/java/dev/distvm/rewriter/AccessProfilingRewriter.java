package dev.distvm.rewriter;

import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The profiling rewrite of a class already loaded (and so retransformed: no member added or
 * removed, no modifier changed): before every field access, array element access and monitor enter,
 * and at the start of every synchronized method, a call {@code access(Object target, int site)} of
 * the given hook class, where the target is the object accessed (null for a static field, the
 * {@code this} of a synchronized method, null for a static one) and the site a number from
 * {@link AccessSites}, which says what the site does. The hook is {@link #HOOK_NAME}.
 *
 * <p>Each call copies the target from under the operands with stack shuffles only: no local
 * variable and no branch is added, so the class's stack map frames stay valid, and the stack grows
 * by at most three ({@code COMPUTE_MAXS}). Field writes in constructors are left alone: before the
 * superclass constructor runs, {@code this} is uninitialized and may not be passed to a method, and
 * an object under construction is not yet shared.
 */
public final class AccessProfilingRewriter {
    /** The hook every site calls: what the site does is in its number. */
    public static final String HOOK_NAME = "access";
    private static final String HOOK_DESCRIPTOR = "(Ljava/lang/Object;I)V";

    private AccessProfilingRewriter() {}

    /**
     * @param hookClass internal name of the class holding the static hooks
     * @return the rewritten class file
     */
    public static byte[] rewrite(byte[] classFile, String hookClass, AccessSites sites) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new Sites(writer, hookClass, sites, firstLines(reader)), 0);
        return writer.toByteArray();
    }

    /**
     * Each method's first source line, by name and descriptor: the line of a synchronized method's
     * hook, which runs before the method's first line number entry is visited.
     */
    private static Map<String, Integer> firstLines(ClassReader reader) {
        Map<String, Integer> lines = new HashMap<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitLineNumber(int line, Label start) {
                        lines.putIfAbsent(name + descriptor, line);
                    }
                };
            }
        }, ClassReader.SKIP_FRAMES);
        return lines;
    }

    private static final class Sites extends ClassVisitor {
        private final String hookClass;
        private final AccessSites sites;
        private final Map<String, Integer> firstLines;
        private String className;
        private String sourceFile;

        Sites(ClassVisitor next, String hookClass, AccessSites sites, Map<String, Integer> firstLines) {
            super(Opcodes.ASM9, next);
            this.hookClass = hookClass;
            this.sites = sites;
            this.firstLines = firstLines;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            className = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public void visitSource(String source, String debug) {
            sourceFile = source;
            super.visitSource(source, debug);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            return next == null ? null : new Method(next, access, name, firstLines.getOrDefault(name + descriptor, 0));
        }

        private final class Method extends MethodVisitor {
            private final int access;
            private final String name;
            private final boolean constructor;
            private int line;

            Method(MethodVisitor next, int access, String name, int firstLine) {
                super(Opcodes.ASM9, next);
                this.access = access;
                this.name = name;
                this.line = firstLine;
                this.constructor = name.equals("<init>");
            }

            @Override
            public void visitCode() {
                super.visitCode();
                if ((access & Opcodes.ACC_SYNCHRONIZED) != 0) {
                    if ((access & Opcodes.ACC_STATIC) != 0) {
                        super.visitInsn(Opcodes.ACONST_NULL);
                    } else {
                        super.visitVarInsn(Opcodes.ALOAD, 0);
                    }
                    hook(AccessSites.Kind.SYNCHRONIZED_METHOD, className);
                }
            }

            @Override
            public void visitLineNumber(int lineNumber, Label start) {
                line = lineNumber;
                super.visitLineNumber(lineNumber, start);
            }

            @Override
            public void visitFieldInsn(int opcode, String owner, String field, String descriptor) {
                String target = owner + "." + field;
                boolean wide = descriptor.equals("J") || descriptor.equals("D");
                switch (opcode) {
                    case Opcodes.GETSTATIC -> {
                        super.visitInsn(Opcodes.ACONST_NULL);
                        hook(AccessSites.Kind.STATIC_READ, target);
                    }
                    case Opcodes.PUTSTATIC -> {
                        super.visitInsn(Opcodes.ACONST_NULL);
                        hook(AccessSites.Kind.STATIC_WRITE, target);
                    }
                    case Opcodes.GETFIELD -> {
                        super.visitInsn(Opcodes.DUP);
                        hook(AccessSites.Kind.FIELD_READ, target);
                    }
                    case Opcodes.PUTFIELD -> {
                        if (!constructor) {
                            copyObjectUnderValue(wide);
                            hook(AccessSites.Kind.FIELD_WRITE, target);
                        }
                    }
                    default -> throw new IllegalArgumentException("field opcode " + opcode);
                }
                super.visitFieldInsn(opcode, owner, field, descriptor);
            }

            /** {@code obj, value -> obj, value, obj}. */
            private void copyObjectUnderValue(boolean wideValue) {
                if (wideValue) {
                    super.visitInsn(Opcodes.DUP2_X1); // v, obj, v
                    super.visitInsn(Opcodes.POP2);    // v, obj
                    super.visitInsn(Opcodes.DUP_X2);  // obj, v, obj
                } else {
                    super.visitInsn(Opcodes.DUP2);    // obj, v, obj, v
                    super.visitInsn(Opcodes.POP);     // obj, v, obj
                }
            }

            @Override
            public void visitInsn(int opcode) {
                switch (opcode) {
                    case Opcodes.IALOAD, Opcodes.LALOAD, Opcodes.FALOAD, Opcodes.DALOAD, Opcodes.AALOAD, Opcodes.BALOAD,
                            Opcodes.CALOAD, Opcodes.SALOAD -> {
                        super.visitInsn(Opcodes.DUP2); // arr, i, arr, i
                        super.visitInsn(Opcodes.POP);  // arr, i, arr
                        hook(AccessSites.Kind.ARRAY_READ, elementType(opcode));
                    }
                    case Opcodes.IASTORE, Opcodes.FASTORE, Opcodes.AASTORE, Opcodes.BASTORE, Opcodes.CASTORE,
                            Opcodes.SASTORE -> {
                        super.visitInsn(Opcodes.DUP_X2);  // v, arr, i, v
                        super.visitInsn(Opcodes.POP);     // v, arr, i
                        copyArrayOverValue(false);
                        hook(AccessSites.Kind.ARRAY_WRITE, elementType(opcode));
                    }
                    case Opcodes.LASTORE, Opcodes.DASTORE -> {
                        super.visitInsn(Opcodes.DUP2_X2); // v, arr, i, v
                        super.visitInsn(Opcodes.POP2);    // v, arr, i
                        copyArrayOverValue(true);
                        hook(AccessSites.Kind.ARRAY_WRITE, elementType(opcode));
                    }
                    case Opcodes.MONITORENTER -> {
                        super.visitInsn(Opcodes.DUP);
                        hook(AccessSites.Kind.MONITOR_ENTER, className);
                    }
                    default -> { }
                }
                super.visitInsn(opcode);
            }

            /** {@code v, arr, i -> arr, i, v, arr}. */
            private void copyArrayOverValue(boolean wideValue) {
                super.visitInsn(wideValue ? Opcodes.DUP2_X2 : Opcodes.DUP2_X1); // arr, i, v, arr, i
                super.visitInsn(Opcodes.POP);                                    // arr, i, v, arr
            }

            private void hook(AccessSites.Kind kind, String target) {
                super.visitLdcInsn(sites.register(kind, target, className, name, sourceFile, line));
                super.visitMethodInsn(Opcodes.INVOKESTATIC, hookClass, HOOK_NAME, HOOK_DESCRIPTOR, false);
            }
        }
    }

    private static String elementType(int opcode) {
        return switch (opcode) {
            case Opcodes.IALOAD, Opcodes.IASTORE -> "int[]";
            case Opcodes.LALOAD, Opcodes.LASTORE -> "long[]";
            case Opcodes.FALOAD, Opcodes.FASTORE -> "float[]";
            case Opcodes.DALOAD, Opcodes.DASTORE -> "double[]";
            case Opcodes.AALOAD, Opcodes.AASTORE -> "Object[]";
            case Opcodes.BALOAD, Opcodes.BASTORE -> "byte[] or boolean[]";
            case Opcodes.CALOAD, Opcodes.CASTORE -> "char[]";
            default -> "short[]";
        };
    }
}
