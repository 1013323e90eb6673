package dev.distvm.rewriter;

import dev.distvm.rewriter.RewriteCounts.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Array reads on a worker, where a shared primitive array may lack chunks the home has not sent
 * yet: the runtime faults a chunk in before anything reads it. A primitive element load
 * ({@code iaload} ... {@code saload}; reference arrays always arrive whole) becomes
 * {@code dup2; arrayRead(a, i); xaload}: the hook returns quietly for a null array or a bad index,
 * so the load itself still throws, in the application's frame. A call that hands arrays to JDK
 * code, which is not rewritten and so reads and writes them without hooks, first calls
 * {@code arrayPassing(a)} for each: its arguments from the deepest array up are stored in fresh
 * locals past the method's own, passed to the hook, and loaded back. No stack effect and no
 * branch, so the frames stay valid: a spilled local lives only in that straight-line sequence, and
 * the frames elsewhere need not list it.
 *
 * <p>JDK code is what {@link ArrayPassingRewriter} says it is, and also JDK constructors (a
 * {@code new String(chars)} reads the chars), a call on an array ({@code ints.clone()}, the
 * receiver being the array), {@code super} calls and calls in interfaces: a hook call needs no
 * helper. An application class's own constructor is not inherited, so it is rewritten code.
 * Left alone: {@code invokedynamic}.
 */
final class ArrayReadRewriter extends ClassVisitor {
    private final HookCalls hooks;
    private final Predicate<String> isApplicationClass;
    private final JdkInheritance jdkInheritance;
    private final RewriteCounts counts;

    ArrayReadRewriter(ClassVisitor next, HookCalls hooks, Predicate<String> isApplicationClass,
            JdkInheritance jdkInheritance, RewriteCounts counts) {
        super(Opcodes.ASM9, next);
        this.hooks = hooks;
        this.isApplicationClass = isApplicationClass;
        this.jdkInheritance = jdkInheritance;
        this.counts = counts;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        // Buffered: the spilled locals go past the method's last, known only at its end.
        return new MethodNode(Opcodes.ASM9, access, name, descriptor, signature, exceptions) {
            @Override
            public void visitEnd() {
                insertHooks(this);
                accept(next);
            }
        };
    }

    private void insertHooks(MethodNode method) {
        int firstSpilled = firstUnusedLocal(method);
        int spilledSlots = 0;
        MethodNode before = new MethodNode();
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            if (isPrimitiveLoad(insn.getOpcode())) {
                before.visitInsn(Opcodes.DUP2);
                hooks.invoke(before, RuntimeHooks.ARRAY_READ);
                counts.add(Kind.ARRAY_READ);
            } else if (insn instanceof MethodInsnNode call && callsJdk(call)) {
                spilledSlots = Math.max(spilledSlots, passArrays(before, call, firstSpilled));
            }
            // Moves what was emitted, leaving the list empty for the next instruction.
            method.instructions.insertBefore(insn, before.instructions);
        }
        method.maxLocals = Math.max(method.maxLocals, firstSpilled + spilledSlots);
    }

    private static boolean isPrimitiveLoad(int opcode) {
        return opcode >= Opcodes.IALOAD && opcode <= Opcodes.SALOAD && opcode != Opcodes.AALOAD;
    }

    private boolean callsJdk(MethodInsnNode call) {
        if (call.owner.startsWith("[")) {
            return true;
        }
        if (call.name.startsWith("$dist$")) {
            return false;
        }
        if (isApplicationClass.test(call.owner)) {
            return !call.name.equals("<init>") && jdkInheritance.inheritedFromJdk(call.owner, call.name, call.desc);
        }
        // dist's own classes, the hook class among them, are the runtime, not code that reads behind its back.
        return !call.owner.startsWith("dev/distvm/");
    }

    /**
     * Emits the spill, the hook calls and the reload for one call's array operands, if it has any.
     *
     * @return the local slots the spill used, 0 if the call hands over no array
     */
    private int passArrays(MethodNode code, MethodInsnNode call, int firstSpilled) {
        // Operands in stack order, deepest first; a receiver only when it is the array. Other
        // receivers (among them a constructor's uninitialized one) stay on the stack.
        List<Type> operands = new ArrayList<>();
        int receiver = call.owner.startsWith("[") ? 1 : 0;
        if (receiver == 1) {
            operands.add(Type.getObjectType(call.owner));
        }
        operands.addAll(List.of(Type.getArgumentTypes(call.desc)));
        boolean[] isArray = new boolean[operands.size()];
        int deepest = -1;
        for (int i = 0; i < operands.size(); i++) {
            isArray[i] = operands.get(i).getSort() == Type.ARRAY
                    || (operands.get(i).getDescriptor().equals("Ljava/lang/Object;") && usesAsArray(call, i - receiver));
            deepest = deepest < 0 && isArray[i] ? i : deepest;
        }
        if (deepest < 0) {
            return 0;
        }
        int[] slots = new int[operands.size()];
        int slot = firstSpilled;
        for (int i = deepest; i < operands.size(); i++) {
            slots[i] = slot;
            slot += operands.get(i).getSize();
        }
        for (int i = operands.size() - 1; i >= deepest; i--) {
            code.visitVarInsn(operands.get(i).getOpcode(Opcodes.ISTORE), slots[i]);
        }
        for (int i = deepest; i < operands.size(); i++) {
            if (isArray[i]) {
                code.visitVarInsn(Opcodes.ALOAD, slots[i]);
                hooks.invoke(code, RuntimeHooks.ARRAY_PASSING);
            }
        }
        for (int i = deepest; i < operands.size(); i++) {
            code.visitVarInsn(operands.get(i).getOpcode(Opcodes.ILOAD), slots[i]);
        }
        counts.add(Kind.ARRAY_PASSING);
        return slot - firstSpilled;
    }

    /** The JDK methods that read or write an array through a parameter typed {@code Object}. */
    private static boolean usesAsArray(MethodInsnNode call, int parameter) {
        return switch (call.owner) {
            case "java/lang/System" -> call.name.equals("arraycopy") && (parameter == 0 || parameter == 2);
            case "java/lang/reflect/Array" -> parameter == 0;
            case "java/util/Objects" -> call.name.equals("deepEquals");
            default -> false;
        };
    }

    /**
     * Past every local the method uses: the visitors before this one leave the maxima of the
     * methods they generate to the writer ({@code visitMaxs(0, 0)}), so {@code maxLocals} alone
     * may be short.
     */
    static int firstUnusedLocal(MethodNode method) {
        int unused = Math.max(method.maxLocals,
                (Type.getArgumentsAndReturnSizes(method.desc) >> 2) - ((method.access & Opcodes.ACC_STATIC) != 0 ? 1 : 0));
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof VarInsnNode local) {
                boolean twoSlots = local.getOpcode() == Opcodes.LLOAD || local.getOpcode() == Opcodes.DLOAD
                        || local.getOpcode() == Opcodes.LSTORE || local.getOpcode() == Opcodes.DSTORE;
                unused = Math.max(unused, local.var + (twoSlots ? 2 : 1));
            } else if (insn instanceof IincInsnNode increment) {
                unused = Math.max(unused, increment.var + 1);
            }
        }
        return unused;
    }
}
