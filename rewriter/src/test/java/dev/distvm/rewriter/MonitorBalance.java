package dev.distvm.rewriter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.Interpreter;

/**
 * Whether each method's monitors can be paired the way HotSpot pairs them before it compiles a
 * method (GenerateOopMap's monitor matching), which refuses the method otherwise: every value a
 * {@code monitorexit} unlocks must be a value some {@code monitorenter} of the method locked,
 * followed through loads, stores and {@code dup}s (a value an instruction makes, a call's result
 * or an {@code ldc}, is another value each time); and every instruction that may throw while a
 * monitor is held must be covered by a catch-any handler (else the exception could leave the
 * method holding the monitor). And as C1 requires: no handler range that contains its own handler
 * (javac's, over the handler's exit) may cover an instruction of the handler that may throw.
 */
final class MonitorBalance {
    private MonitorBalance() {}

    /** The problems found in the class file, one line per method; empty when every method balances. */
    static List<String> problems(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        List<String> problems = new ArrayList<>();
        for (MethodNode method : type.methods) {
            String problem = problem(type.name, method);
            if (problem != null) {
                problems.add(method.name + method.desc + ": " + problem);
            }
        }
        return problems;
    }

    /** Counts the monitor instructions of a class file, to check that a test looked at some. */
    static int monitorEnters(byte[] classFile) {
        ClassNode type = new ClassNode();
        new ClassReader(classFile).accept(type, 0);
        int enters = 0;
        for (MethodNode method : type.methods) {
            for (AbstractInsnNode insn : method.instructions) {
                enters += insn.getOpcode() == Opcodes.MONITORENTER ? 1 : 0;
            }
        }
        return enters;
    }

    private static String problem(String owner, MethodNode method) {
        Frame<Value>[] frames;
        Edges analyzer = new Edges();
        try {
            frames = analyzer.analyze(owner, method);
        } catch (AnalyzerException e) {
            return "does not analyze: " + e.getMessage();
        }
        List<Value> locked = new ArrayList<>();
        for (int i = 0; i < frames.length; i++) {
            if (frames[i] != null && method.instructions.get(i).getOpcode() == Opcodes.MONITORENTER) {
                Value value = top(frames[i]);
                if (value.origin() == Value.UNKNOWN) {
                    return "monitorenter at " + i + " locks a value of no single origin";
                }
                locked.add(value);
            }
        }
        for (int i = 0; i < frames.length; i++) {
            if (frames[i] != null && method.instructions.get(i).getOpcode() == Opcodes.MONITOREXIT
                    && !locked.contains(top(frames[i]))) {
                return "monitorexit at " + i + " unlocks a value no monitorenter locked";
            }
        }
        return uncovered(method, analyzer);
    }

    /** The first instruction that may throw while a monitor is held and no catch-any handler covers it. */
    private static String uncovered(MethodNode method, Edges edges) {
        int[] held = new int[method.instructions.size()];
        Arrays.fill(held, -1);
        held[0] = 0;
        ArrayDeque<Integer> work = new ArrayDeque<>(List.of(0));
        while (!work.isEmpty()) {
            int i = work.pop();
            AbstractInsnNode insn = method.instructions.get(i);
            int opcode = insn.getOpcode();
            int after = held[i] + (opcode == Opcodes.MONITORENTER ? 1 : opcode == Opcodes.MONITOREXIT ? -1 : 0);
            List<int[]> successors = new ArrayList<>();
            for (int[] edge : edges.edges) {
                if (edge[0] == i) {
                    successors.add(new int[] {edge[1], after});
                }
            }
            if (mayThrow(insn) || opcode == Opcodes.MONITOREXIT) {
                // As HotSpot does: an exception goes to the covering handlers in table order, up to
                // the first catch-any, with the monitors held before the instruction.
                for (TryCatchBlockNode block : method.tryCatchBlocks) {
                    if (covers(method, block, i)) {
                        successors.add(new int[] {method.instructions.indexOf(block.handler), held[i]});
                        if (block.type == null) {
                            break;
                        }
                    }
                }
            }
            for (int[] successor : successors) {
                if (held[successor[0]] == -1) {
                    held[successor[0]] = successor[1];
                    work.push(successor[0]);
                } else if (held[successor[0]] != successor[1]) {
                    return "instruction " + successor[0] + " is reached holding " + held[successor[0]] + " and "
                            + successor[1] + " monitors";
                }
            }
        }
        for (int i = 0; i < held.length; i++) {
            if (held[i] > 0 && mayThrow(method.instructions.get(i)) && !coveredByCatchAny(method, i)) {
                return "instruction " + i + " may throw holding a monitor, outside any catch-any handler";
            }
        }
        for (TryCatchBlockNode block : method.tryCatchBlocks) {
            int handler = method.instructions.indexOf(block.handler);
            for (int i = handler; covers(method, block, handler) && covers(method, block, i); i++) {
                if (mayThrow(method.instructions.get(i))) {
                    return "instruction " + i + " may throw in a handler whose range covers it";
                }
            }
        }
        return null;
    }

    private static boolean mayThrow(AbstractInsnNode insn) {
        return insn.getType() == AbstractInsnNode.METHOD_INSN || insn.getType() == AbstractInsnNode.INVOKE_DYNAMIC_INSN
                || insn.getType() == AbstractInsnNode.FIELD_INSN || insn.getType() == AbstractInsnNode.TYPE_INSN
                || insn.getOpcode() == Opcodes.ATHROW;
    }

    private static boolean coveredByCatchAny(MethodNode method, int i) {
        return method.tryCatchBlocks.stream().anyMatch(block -> block.type == null && covers(method, block, i));
    }

    private static boolean covers(MethodNode method, TryCatchBlockNode block, int i) {
        return method.instructions.indexOf(block.start) <= i && i < method.instructions.indexOf(block.end);
    }

    /** Records the normal control flow, {from, to}; exceptions are followed as HotSpot follows them. */
    private static final class Edges extends Analyzer<Value> {
        final List<int[]> edges = new ArrayList<>();

        Edges() {
            super(new Identities());
        }

        @Override
        protected void newControlFlowEdge(int insnIndex, int successorIndex) {
            edges.add(new int[] {insnIndex, successorIndex});
        }
    }

    private static Value top(Frame<Value> frame) {
        return frame.getStack(frame.getStackSize() - 1);
    }

    /** A value and where it came from: the instruction that made it, a parameter's slot, or unknown. */
    record Value(BasicValue basic, Object origin) implements org.objectweb.asm.tree.analysis.Value {
        static final Object UNKNOWN = new Object() {
            @Override
            public String toString() {
                return "unknown";
            }
        };

        @Override
        public int getSize() {
            return basic.getSize();
        }
    }

    /** Copies keep their value's identity; everything else makes a new value, named by its instruction. */
    private static final class Identities extends Interpreter<Value> {
        private final BasicInterpreter basic = new BasicInterpreter();

        Identities() {
            super(Opcodes.ASM9);
        }

        private static Value made(BasicValue basic, Object origin) {
            return basic == null ? null : new Value(basic, origin);
        }

        @Override
        public Value newValue(Type type) {
            return made(basic.newValue(type), Value.UNKNOWN);
        }

        @Override
        public Value newParameterValue(boolean isInstanceMethod, int local, Type type) {
            return made(basic.newValue(type), "parameter " + local);
        }

        @Override
        public Value newOperation(AbstractInsnNode insn) throws AnalyzerException {
            return made(basic.newOperation(insn), insn);
        }

        @Override
        public Value copyOperation(AbstractInsnNode insn, Value value) {
            return value;
        }

        @Override
        public Value unaryOperation(AbstractInsnNode insn, Value value) throws AnalyzerException {
            return made(basic.unaryOperation(insn, value.basic()), insn);
        }

        @Override
        public Value binaryOperation(AbstractInsnNode insn, Value value1, Value value2) throws AnalyzerException {
            return made(basic.binaryOperation(insn, value1.basic(), value2.basic()), insn);
        }

        @Override
        public Value ternaryOperation(AbstractInsnNode insn, Value value1, Value value2, Value value3)
                throws AnalyzerException {
            return made(basic.ternaryOperation(insn, value1.basic(), value2.basic(), value3.basic()), insn);
        }

        @Override
        public Value naryOperation(AbstractInsnNode insn, List<? extends Value> values) throws AnalyzerException {
            return made(basic.naryOperation(insn, values.stream().map(Value::basic).toList()), insn);
        }

        @Override
        public void returnOperation(AbstractInsnNode insn, Value value, Value expected) {
            // Returns make no value.
        }

        @Override
        public Value merge(Value value1, Value value2) {
            return value1.equals(value2) ? value1 : new Value(basic.merge(value1.basic(), value2.basic()), Value.UNKNOWN);
        }
    }
}
