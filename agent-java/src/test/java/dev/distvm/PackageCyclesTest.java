package dev.distvm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;

/**
 * No two packages of the project depend on each other, directly or through others: each package
 * has one job, and a cycle means one of them does part of another's. Reads the compiled classes
 * of every project module on the test classpath (this module's and the modules it builds on, not
 * the tests), under the root packages {@code dev.distvm} and {@code mpi}, collects every class each one
 * names in its constant pool and looks for strongly connected packages.
 */
class PackageCyclesTest {
    private static final List<String> ROOTS = List.of("dev/distvm/", "mpi/");
    private static final Pattern DESCRIBED_CLASS = Pattern.compile("L((?:dev/distvm|mpi)/[^;<]+)[;<]");
    private static final int UTF8 = 1;
    private static final int CLASS = 7;

    @Test
    void noPackageDependsOnItselfThroughOthers() throws IOException, URISyntaxException {
        PackageGraph graph = new PackageGraph();
        Path tests = Path.of(PackageCyclesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (!path.equals(tests)) {
                read(path, graph);
            }
        }
        assertTrue(graph.packageCount() > 10, "found too few project packages to check: " + graph.packageCount());
        List<String> cycles = graph.cycles();
        assertTrue(cycles.isEmpty(), "packages that depend on each other (move a class to where it belongs, or let"
                + " the lower package own an interface):\n" + String.join("\n", cycles));
    }

    private static void read(Path classpathEntry, PackageGraph graph) throws IOException {
        if (Files.isDirectory(classpathEntry)) {
            try (Stream<Path> files = Files.walk(classpathEntry)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    String name = classpathEntry.relativize(file).toString().replace(File.separatorChar, '/');
                    if (isProjectClass(name)) {
                        graph.add(Files.readAllBytes(file));
                    }
                }
            }
        } else if (classpathEntry.toString().endsWith(".jar") && Files.isRegularFile(classpathEntry)) {
            try (JarFile jar = new JarFile(classpathEntry.toFile())) {
                for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
                    if (isProjectClass(entry.getName())) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            graph.add(in.readAllBytes());
                        }
                    }
                }
            }
        }
    }

    private static boolean isProjectClass(String path) {
        return path.endsWith(".class") && !path.endsWith("module-info.class") && isProject(path);
    }

    private static boolean isProject(String internalName) {
        return ROOTS.stream().anyMatch(internalName::startsWith);
    }

    /** Packages as nodes; an edge for each package another one names, with one class pair that shows it. */
    private static final class PackageGraph {
        /** from package, to package, an example "from class -> to class". */
        private final Map<String, Map<String, String>> edges = new TreeMap<>();

        int packageCount() {
            return edges.size();
        }

        void add(byte[] classFile) {
            ClassReader reader = new ClassReader(classFile);
            String from = reader.getClassName();
            Map<String, String> out = edges.computeIfAbsent(packageOf(from), p -> new TreeMap<>());
            for (String to : namedClasses(reader)) {
                if (isProject(to) && !packageOf(to).equals(packageOf(from))) {
                    out.putIfAbsent(packageOf(to), dotted(from) + " -> " + dotted(to));
                }
            }
        }

        /**
         * Every class the constant pool names: class entries (what code and declarations use),
         * and {@code L...;} in descriptors and signatures (field and method types, generics,
         * annotations), which name classes without a class entry.
         */
        private static List<String> namedClasses(ClassReader reader) {
            List<String> names = new ArrayList<>();
            char[] buffer = new char[reader.getMaxStringLength()];
            for (int item = 1; item < reader.getItemCount(); item++) {
                int offset = reader.getItem(item);
                if (offset == 0) {
                    continue; // the second slot of a long or double
                }
                int tag = reader.readByte(offset - 1);
                if (tag == CLASS) {
                    names.add(reader.readUTF8(offset, buffer));
                } else if (tag == UTF8) {
                    StringBuilder text = new StringBuilder();
                    for (int i = 0, length = reader.readUnsignedShort(offset); i < length; i++) {
                        text.append((char) (reader.readByte(offset + 2 + i) & 0xFF)); // the names sought are ASCII
                    }
                    Matcher descriptor = DESCRIBED_CLASS.matcher(text);
                    while (descriptor.find()) {
                        names.add(descriptor.group(1));
                    }
                }
            }
            return names;
        }

        /** Each strongly connected set of two or more packages, with one example edge of each of its package edges. */
        List<String> cycles() {
            List<String> cycles = new ArrayList<>();
            for (List<String> component : new Tarjan().components()) {
                if (component.size() < 2) {
                    continue;
                }
                TreeSet<String> members = new TreeSet<>(component);
                StringBuilder text = new StringBuilder("cycle among " + String.join(", ", members.stream().map(PackageCyclesTest::dotted).toList()) + ":");
                for (String from : members) {
                    edges.getOrDefault(from, Map.of()).forEach((to, example) -> {
                        if (members.contains(to)) {
                            text.append("\n    ").append(dotted(from)).append(" -> ").append(dotted(to)).append("  (").append(example).append(")");
                        }
                    });
                }
                cycles.add(text.toString());
            }
            return cycles;
        }

        /** Tarjan's strongly connected components of the package graph (a few dozen packages: recursion is fine). */
        private final class Tarjan {
            private final Map<String, Integer> index = new HashMap<>();
            private final Map<String, Integer> low = new HashMap<>();
            private final Deque<String> stack = new ArrayDeque<>();
            private final List<List<String>> components = new ArrayList<>();
            private int next;

            List<List<String>> components() {
                for (String node : edges.keySet()) {
                    if (!index.containsKey(node)) {
                        visit(node);
                    }
                }
                return components;
            }

            private void visit(String node) {
                index.put(node, next);
                low.put(node, next);
                next++;
                stack.push(node);
                for (String to : edges.getOrDefault(node, Map.of()).keySet()) {
                    if (!index.containsKey(to)) {
                        visit(to);
                        low.put(node, Math.min(low.get(node), low.get(to)));
                    } else if (stack.contains(to)) {
                        low.put(node, Math.min(low.get(node), index.get(to)));
                    }
                }
                if (low.get(node).equals(index.get(node))) {
                    List<String> component = new ArrayList<>();
                    String member;
                    do {
                        member = stack.pop();
                        component.add(member);
                    } while (!member.equals(node));
                    components.add(component);
                }
            }
        }
    }

    private static String packageOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? "" : internalName.substring(0, slash);
    }

    private static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }
}
