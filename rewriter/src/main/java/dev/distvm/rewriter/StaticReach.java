package dev.distvm.rewriter;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The static fields that the application code reachable from one method may read or write, found
 * in the class files: a thread placed on another node faults in the statics it uses, and one that
 * holds what cannot be shared would stop it there, after it did part of its work. Calls are
 * followed to the named method of the named class or its nearest application superclass, and
 * lambdas to their implementation; an interface or overriding method that only a subclass
 * declares is not followed, so the answer may miss fields, never name one the code cannot reach.
 * Pure: the caller says where class files come from.
 */
public final class StaticReach {
    /** A static field as the code names it (its owner may inherit it). */
    public record Field(String owner, String name) {}

    /** What the walk found; {@code complete} is false when it stopped at its limit of methods. */
    public record Reach(Set<Field> fields, boolean complete) {}

    private record Method(String owner, String name, String descriptor) {}

    private record Body(Set<Field> fields, Set<Method> calls) {}

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
        Set<Method> visited = new HashSet<>();
        ArrayDeque<Method> pending = new ArrayDeque<>(List.of(new Method(owner, name, descriptor)));
        while (!pending.isEmpty()) {
            Method method = pending.poll();
            if (!visited.add(method)) {
                continue;
            }
            if (visited.size() > methodLimit) {
                return new Reach(fields, false);
            }
            Body body = bodyOf(method);
            if (body != null) {
                fields.addAll(body.fields());
                pending.addAll(body.calls());
            }
        }
        return new Reach(fields, true);
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
                Body body = new Body(new LinkedHashSet<>(), new LinkedHashSet<>());
                bodies.put(name + descriptor, body);
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                        if (opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC) {
                            body.fields().add(new Field(owner, field));
                        }
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor, boolean isInterface) {
                        if (!owner.startsWith("[")) {
                            body.calls().add(new Method(owner, method, methodDescriptor));
                        }
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String method, String methodDescriptor, Handle bootstrap, Object... arguments) {
                        for (Object argument : arguments) {
                            if (argument instanceof Handle implementation) {
                                body.calls().add(new Method(implementation.getOwner(), implementation.getName(), implementation.getDesc()));
                            }
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new ClassFile(superName[0], bodies);
    }
}
