package dev.distvm.rewriter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The static fields that the application code reachable from one method may read or write, and
 * the types of the objects it locks where the class file shows them, found in the class files: a
 * thread placed on another node faults in the statics it uses, and one that holds what cannot be
 * shared would stop it there, after it did part of its work; so would a lock on a value each node
 * has its own of (a string, a boxed value, an enum constant). A lock's type shows when the
 * {@code synchronized} expression is a constant string, a field or a method's result (javac:
 * the value, {@code dup}, {@code astore}, {@code monitorenter}), or a local variable's last
 * value in the order of the code (a parameter: its declared type). The same holds for the values
 * stored into fields and array elements: a thread on another node that stores a JDK collection it
 * made into shared data would stop the run at its next release (not the elements of an array made
 * for a JDK method's call, {@code String.format("%s", list)}, which go nowhere else). Calls are
 * followed to the named method of the named class or its nearest application superclass, and
 * lambdas to their implementation, and so is the class initializer of each class whose statics
 * are named (what it stores counts as stored); an interface or overriding method that only a
 * subclass declares is not followed, so the answer may miss fields, never name one the code cannot
 * reach (but one a class initializer names).
 * Pure: the caller says where class files come from.
 */
public final class StaticReach {
    /**
     * A static field as the code names it (its owner may inherit it). Hash keys here and in the
     * runtime write out their {@code equals} and {@code hashCode}: a record's own are made by
     * method handles at their first call, tens of milliseconds spent in the first {@code start()}
     * of a program's thread.
     */
    public record Field(String owner, String name) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Field field && owner.equals(field.owner) && name.equals(field.name);
        }

        @Override
        public int hashCode() {
            return owner.hashCode() * 31 + name.hashCode();
        }
    }

    /**
     * What the walk found: static fields, the descriptors of locked values' declared types, of the
     * declared types of values stored into fields and array elements (where the class file shows
     * them, as for locks), each with the first method seen storing one ({@code Owner.name}, dotted),
     * the JDK methods called that write fields or array elements out of the rewriter's sight
     * (reflection, {@code VarHandle}s, field updaters, {@code Unsafe}: {@code Owner.name}, dotted),
     * each with the first method seen calling one, and {@code complete}, false when it stopped at
     * its limit of methods.
     */
    public record Reach(Set<Field> fields, Set<String> lockedTypes, Map<String, String> storedTypes,
            Map<String, String> reflectiveWrites, boolean complete) {}

    /** A method as a call names it; equals and hashCode written out as {@link Field}'s. */
    private record Method(String owner, String name, String descriptor) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Method method && owner.equals(method.owner) && name.equals(method.name)
                    && descriptor.equals(method.descriptor);
        }

        @Override
        public int hashCode() {
            return (owner.hashCode() * 31 + name.hashCode()) * 31 + descriptor.hashCode();
        }
    }

    private record Body(Set<Field> fields, Set<String> lockedTypes, Set<String> storedTypes, Set<String> reflectiveWrites,
            Set<Method> calls) {}

    private record ClassFile(String superName, Map<String, Body> bodies) {}

    private final Function<String, byte[]> classBytes;
    private final Map<String, ClassFile> parsed = new HashMap<>();

    /** @param classBytes an application class's file by internal name; null for any other class */
    public StaticReach(Function<String, byte[]> classBytes) {
        this.classBytes = classBytes;
    }

    /** The static fields reachable from {@code owner.name descriptor}, walking at most {@code methodLimit} methods. */
    public Reach from(String owner, String name, String descriptor, int methodLimit) {
        Set<Field> fields = new LinkedHashSet<>();
        Set<String> lockedTypes = new LinkedHashSet<>();
        Map<String, String> storedTypes = new LinkedHashMap<>();
        Map<String, String> reflectiveWrites = new LinkedHashMap<>();
        Set<Method> visited = new HashSet<>();
        ArrayDeque<Method> pending = new ArrayDeque<>(List.of(new Method(owner, name, descriptor)));
        while (!pending.isEmpty()) {
            Method method = pending.poll();
            if (!visited.add(method)) {
                continue;
            }
            if (visited.size() > methodLimit) {
                return new Reach(fields, lockedTypes, storedTypes, reflectiveWrites, false);
            }
            Body body = bodyOf(method);
            if (body != null) {
                fields.addAll(body.fields());
                for (Field field : body.fields()) {
                    // The class initializer of a class whose statics the code uses stores what they
                    // hold first (a registry's `static final List<...> L = new ArrayList<>()`), and
                    // runs at the home when the class is first used there or on a worker.
                    pending.add(new Method(field.owner(), "<clinit>", "()V"));
                }
                lockedTypes.addAll(body.lockedTypes());
                String where = method.owner().replace('/', '.') + "." + method.name();
                for (String stored : body.storedTypes()) {
                    storedTypes.putIfAbsent(stored, where);
                }
                for (String writer : body.reflectiveWrites()) {
                    reflectiveWrites.putIfAbsent(writer, where);
                }
                pending.addAll(body.calls());
            }
        }
        return new Reach(fields, lockedTypes, storedTypes, reflectiveWrites, true);
    }

    /** The method's body in its class or the nearest application superclass that declares it. */
    private Body bodyOf(Method method) {
        for (String owner = method.owner(); owner != null; ) {
            ClassFile file = parse(owner);
            if (file == null) {
                return null;
            }
            Body body = file.bodies().get(method.name() + method.descriptor());
            if (body != null) {
                return body;
            }
            owner = file.superName();
        }
        return null;
    }

    private ClassFile parse(String internalName) {
        if (parsed.containsKey(internalName)) {
            return parsed.get(internalName);
        }
        byte[] bytes = classBytes.apply(internalName);
        ClassFile file = bytes == null ? null : read(bytes);
        parsed.put(internalName, file);
        return file;
    }

    private static ClassFile read(byte[] bytes) {
        Map<String, Body> bodies = new HashMap<>();
        String[] superName = new String[1];
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superclass, String[] interfaces) {
                superName[0] = superclass;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                Body body = new Body(new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>(),
                        new LinkedHashSet<>());
                bodies.put(name + descriptor, body);
                return new MethodVisitor(Opcodes.ASM9) {
                    /** The declared type of the value the last instructions left on the stack, if known: see the class comment. */
                    private String valueType;
                    /**
                     * Per local variable, the declared type of the value last stored into it in the
                     * order of the code (javac gives a slot to one variable per scope), and of the
                     * parameters: a guess, which is what the walk's callers want (a type named
                     * here may be missed, or come from another variable of the same slot).
                     */
                    private final Map<Integer, String> locals = parameterTypes(access, descriptor);
                    /**
                     * Per array made here and not yet known to go anywhere ({@code new Object[] {a, b}},
                     * a varargs array), the types stored into its elements: dropped when a JDK method
                     * that takes an array is called next ({@code String.format}, {@code printf}: it
                     * reads the elements, nobody else gets the array), counted as stored when the
                     * array may go elsewhere first (a local, a field, an application method, a branch).
                     */
                    private final ArrayDeque<List<String>> arraysBeingFilled = new ArrayDeque<>();

                    private void storedType(String type) {
                        if (arraysBeingFilled.isEmpty()) {
                            body.storedTypes().add(type);
                        } else {
                            arraysBeingFilled.peek().add(type);
                        }
                    }

                    private void arraysMayGoElsewhere() {
                        for (List<String> types : arraysBeingFilled) {
                            body.storedTypes().addAll(types);
                        }
                        arraysBeingFilled.clear();
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                        if (opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC) {
                            body.fields().add(new Field(owner, field));
                        }
                        if (opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC) {
                            arraysMayGoElsewhere();
                            if (valueType != null) {
                                body.storedTypes().add(valueType);
                            }
                        }
                        valueType = opcode == Opcodes.GETSTATIC || opcode == Opcodes.GETFIELD ? fieldDescriptor : null;
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor, boolean isInterface) {
                        if (!owner.startsWith("[")) {
                            body.calls().add(new Method(owner, method, methodDescriptor));
                        }
                        if (writesOutOfSight(owner, method)) {
                            body.reflectiveWrites().add(owner.replace('/', '.') + "." + method);
                        }
                        if (takesAnArray(methodDescriptor)) {
                            if (owner.startsWith("java/") && !arraysBeingFilled.isEmpty()) {
                                arraysBeingFilled.pop();
                            } else {
                                arraysMayGoElsewhere();
                            }
                        }
                        // javac's `new T; dup; <arguments>; invokespecial T.<init>` leaves the new T on the stack
                        valueType = method.equals("<init>") ? Type.getObjectType(owner).getDescriptor()
                                : Type.getReturnType(methodDescriptor).getDescriptor();
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String method, String methodDescriptor, Handle bootstrap, Object... arguments) {
                        for (Object argument : arguments) {
                            if (argument instanceof Handle implementation) {
                                body.calls().add(new Method(implementation.getOwner(), implementation.getName(), implementation.getDesc()));
                            }
                        }
                        valueType = Type.getReturnType(methodDescriptor).getDescriptor();
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        valueType = value instanceof String ? "Ljava/lang/String;" : null;
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.MONITORENTER && valueType != null) {
                            body.lockedTypes().add(valueType);
                        }
                        if (opcode == Opcodes.AASTORE && valueType != null) {
                            storedType(valueType);
                        }
                        if (opcode == Opcodes.ARETURN || opcode == Opcodes.ATHROW) {
                            arraysMayGoElsewhere();
                        }
                        if (opcode != Opcodes.DUP) {
                            valueType = null;
                        }
                    }

                    @Override
                    public void visitVarInsn(int opcode, int variable) {
                        if (opcode == Opcodes.ASTORE) {
                            arraysMayGoElsewhere();
                            if (valueType != null) {
                                locals.put(variable, valueType);
                            } else {
                                locals.remove(variable);
                            }
                        } else {
                            valueType = opcode == Opcodes.ALOAD ? locals.get(variable) : null;
                        }
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        if (opcode == Opcodes.ANEWARRAY) {
                            arraysBeingFilled.push(new ArrayList<>());
                        }
                        valueType = opcode == Opcodes.CHECKCAST ? Type.getObjectType(type).getDescriptor() : null;
                    }

                    @Override
                    public void visitIntInsn(int opcode, int operand) {
                        valueType = null;
                    }

                    @Override
                    public void visitJumpInsn(int opcode, Label label) {
                        arraysMayGoElsewhere();
                        valueType = null;
                    }

                    @Override
                    public void visitLabel(Label label) {
                        arraysMayGoElsewhere();
                        valueType = null;
                    }

                    @Override
                    public void visitEnd() {
                        arraysMayGoElsewhere();
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new ClassFile(superName[0], bodies);
    }

    /**
     * Whether {@code owner.name} writes a field or an array element that the rewriter's hooks do
     * not see: a write through reflection, a {@code VarHandle}, a field updater or {@code Unsafe}.
     */
    static boolean writesOutOfSight(String owner, String name) {
        return switch (owner) {
            case "java/lang/reflect/Field", "java/lang/reflect/Array" -> name.startsWith("set") && !name.equals("setAccessible");
            case "java/lang/invoke/VarHandle" -> name.startsWith("set") || name.startsWith("compareAnd")
                    || name.startsWith("weakCompareAnd") || name.startsWith("getAnd");
            case "java/util/concurrent/atomic/AtomicIntegerFieldUpdater", "java/util/concurrent/atomic/AtomicLongFieldUpdater",
                    "java/util/concurrent/atomic/AtomicReferenceFieldUpdater" -> !name.equals("get") && !name.equals("newUpdater");
            case "sun/misc/Unsafe", "jdk/internal/misc/Unsafe" -> name.startsWith("put") || name.startsWith("compareAnd")
                    || name.startsWith("getAnd") || name.startsWith("weakCompareAnd") || name.equals("copyMemory")
                    || name.equals("setMemory");
            default -> false;
        };
    }

    private static boolean takesAnArray(String methodDescriptor) {
        for (Type parameter : Type.getArgumentTypes(methodDescriptor)) {
            if (parameter.getSort() == Type.ARRAY) {
                return true;
            }
        }
        return false;
    }

    /** The declared types of a method's reference parameters by slot ({@code this} not among them). */
    private static Map<Integer, String> parameterTypes(int access, String descriptor) {
        Map<Integer, String> types = new HashMap<>();
        int slot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
        for (Type parameter : Type.getArgumentTypes(descriptor)) {
            if (parameter.getSort() == Type.OBJECT || parameter.getSort() == Type.ARRAY) {
                types.put(slot, parameter.getDescriptor());
            }
            slot += parameter.getSize();
        }
        return types;
    }
}
