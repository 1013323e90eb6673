package dev.distvm.node;

import dev.distvm.node.proto.ClassReply;
import dev.distvm.node.proto.ClassRequest;
import dev.distvm.node.proto.NodeMessageType;
import dev.distvm.transport.Endpoint;
import dev.distvm.transport.TransportException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A worker's application class loader: classes and resources come from the home on demand,
 * checked against their SHA-256, and are cached for the rest of the run (resources in a run
 * directory that is removed when the worker ends). A class the home does not have gives the same
 * {@link ClassNotFoundException} (and so {@link NoClassDefFoundError}) as on one JVM.
 */
final class RemoteClassLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    /**
     * A class fetch waits this long for the home: a busy machine must not turn into a missing class.
     * A home that died ends the run through the membership, long before.
     */
    private static final Duration HOME_ANSWERS_WITHIN = Duration.ofMinutes(5);

    private final Endpoint endpoint;
    private final Supplier<Optional<String>> home;
    private final Path cache;
    private final Map<String, Optional<byte[]>> fetched = new ConcurrentHashMap<>();

    RemoteClassLoader(ClassLoader parent, Endpoint endpoint, Supplier<Optional<String>> home, Path cache) {
        super("dist-remote", parent);
        this.endpoint = endpoint;
        this.home = home;
        this.cache = cache;
    }

    /** Names of the classes fetched from the home so far. */
    java.util.List<String> classesLoaded() {
        return fetched.entrySet().stream()
                .filter(e -> e.getValue().isPresent() && e.getKey().endsWith(".class"))
                .map(e -> e.getKey().substring(0, e.getKey().length() - 6).replace('/', '.'))
                .sorted()
                .toList();
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        Optional<byte[]> content;
        try {
            content = fetch(name.replace('.', '/') + ".class");
        } catch (TransportException e) {
            throw new ClassNotFoundException(name + " (the home could not be asked: " + e.getMessage() + ")", e);
        }
        if (content.isEmpty()) {
            throw new ClassNotFoundException(name);
        }
        byte[] bytes = content.get();
        return defineClass(name, bytes, 0, bytes.length);
    }

    @Override
    protected URL findResource(String name) {
        Optional<byte[]> content = fetch(name);
        if (content.isEmpty()) {
            return null;
        }
        try {
            Path file = cache.resolve(name).normalize();
            if (!file.startsWith(cache)) {
                return null;
            }
            synchronized (this) {
                if (!Files.exists(file)) {
                    Files.createDirectories(file.getParent());
                    Files.write(file, content.get());
                }
            }
            return file.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot cache resource " + name + " in " + cache, e);
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.emptyEnumeration() : Collections.enumeration(java.util.List.of(url));
    }

    /**
     * The home's address, waiting for the membership to name it: the home's first message (a
     * thread's start, whose classes this loader then fetches) can arrive before this worker's view
     * of the cluster lists the home, on a loaded machine (a start failed so, one run in forty).
     */
    private String homeAddress(String resource) {
        long deadline = System.nanoTime() + HOME_ANSWERS_WITHIN.toNanos();
        Optional<String> address;
        while ((address = home.get()).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new TransportException("no home node has joined within " + HOME_ANSWERS_WITHIN.toMinutes()
                        + " minutes, so " + resource + " cannot be fetched");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportException("interrupted while waiting for the home's address to fetch " + resource);
            }
        }
        return address.get();
    }

    private Optional<byte[]> fetch(String resource) {
        Optional<byte[]> known = fetched.get(resource);
        if (known != null) {
            return known;
        }
        String address = homeAddress(resource);
        ClassReply reply = endpoint.call(address, NodeMessageType.CLASS_BYTES_VALUE,
                ClassRequest.newBuilder().setResource(resource).build(), ClassReply.parser(), HOME_ANSWERS_WITHIN);
        Optional<byte[]> content = Optional.empty();
        if (reply.getFound()) {
            byte[] bytes = reply.getContent().toByteArray();
            if (!MessageDigest.isEqual(ContentHash.sha256(bytes), reply.getSha256().toByteArray())) {
                throw new TransportException(resource + " arrived from the home with a wrong SHA-256; refusing to use it");
            }
            content = Optional.of(bytes);
        }
        fetched.put(resource, content);
        return content;
    }
}
