package dev.distvm.mpi.launch;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader of one rank in threads mode: the program's classes and the {@code mpi}
 * package (the datatype layer included) are loaded once per rank (so {@code MPI.COMM_WORLD}
 * and the program's statics are the rank's own, as they would be in a process of its own), while
 * the JDK and dist's engine are shared with the launcher.
 */
final class RankClassLoader extends URLClassLoader {
    private static final String[] SHARED = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.distvm."};

    static {
        registerAsParallelCapable();
    }

    RankClassLoader(int rank, URL[] urls, ClassLoader parent) {
        super("mpi-rank-" + rank, urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        for (String prefix : SHARED) {
            if (name.startsWith(prefix)) {
                return super.loadClass(name, resolve);
            }
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                try {
                    loaded = findClass(name);
                } catch (ClassNotFoundException notMine) {
                    return super.loadClass(name, resolve);
                }
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    public URL getResource(String name) {
        URL mine = findResource(name);
        return mine != null ? mine : super.getResource(name);
    }
}
