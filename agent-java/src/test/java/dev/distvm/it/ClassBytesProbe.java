package dev.distvm.it;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * An agent of the tests' own, independent of dist, loaded into a running JVM: retransforms one
 * class with a transformer that changes nothing and writes the bytes it is given, which are the
 * class's bytes after every other agent's transformers (so dist's rewrite shows while it is
 * installed, and the class's own bytes once it is gone). Arguments: {@code CLASS=FILE}.
 */
public final class ClassBytesProbe {
    private ClassBytesProbe() {}

    public static void agentmain(String arguments, Instrumentation instrumentation) throws Exception {
        String className = arguments.substring(0, arguments.indexOf('='));
        Path out = Path.of(arguments.substring(arguments.indexOf('=') + 1));
        String internalName = className.replace('.', '/');
        ClassFileTransformer recorder = new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
                if (internalName.equals(name)) {
                    try {
                        Files.write(out, bytes);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return null;
            }
        };
        instrumentation.addTransformer(recorder, true);
        try {
            for (Class<?> type : instrumentation.getAllLoadedClasses()) {
                if (type.getName().equals(className)) {
                    instrumentation.retransformClasses(type);
                }
            }
        } finally {
            instrumentation.removeTransformer(recorder);
        }
    }

    /** A jar of this class and its nested ones, an agent for the Attach API. */
    static Path jar(Path directory) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Agent-Class", ClassBytesProbe.class.getName());
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        Path jar = directory.resolve("class-bytes-probe.jar");
        String name = ClassBytesProbe.class.getName().replace('.', '/');
        Path directoryOfClasses = Jvm.TEST_CLASSES.resolve(name).getParent();
        String simpleName = ClassBytesProbe.class.getSimpleName();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
                DirectoryStream<Path> classes = Files.newDirectoryStream(directoryOfClasses, simpleName + "{.class,$*.class}")) {
            for (Path classFile : classes) {
                out.putNextEntry(new JarEntry(Jvm.TEST_CLASSES.relativize(classFile).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(classFile));
                out.closeEntry();
            }
        }
        return jar;
    }
}
